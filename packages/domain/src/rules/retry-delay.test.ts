import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, parseRetryPolicy } from '../entities/retry-policy';
import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  const noJitter = { ...DEFAULT_RETRY_POLICY, jitter: 0 };
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [5, 480_000],
    [6, 600_000], // capped at maxDelayMs
  ])('retry %i waits %i ms without jitter', (retry, expected) => {
    expect(retryDelayMs(noJitter, retry, 0.9)).toBe(expected);
  });

  it('the default policy spreads 6 attempts over about 15 minutes', () => {
    const total = [1, 2, 3, 4, 5].reduce((sum, n) => sum + retryDelayMs(DEFAULT_RETRY_POLICY, n, 0.5), 0);
    expect(total).toBe(930_000);
  });

  it.each([
    [0, 24_000],
    [0.5, 30_000],
    [1, 36_000],
  ])('jitter moves the delay by up to ±20%% (random %f -> %i)', (random, expected) => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, random)).toBe(expected);
  });

  it('honours a longer Retry-After, up to an hour', () => {
    expect(retryDelayMs(noJitter, 1, 0, 90_000)).toBe(90_000);
    expect(retryDelayMs(noJitter, 1, 0, 1_000)).toBe(30_000);
    expect(retryDelayMs(noJitter, 1, 0, 86_400_000)).toBe(3_600_000);
  });
});

describe('parseRetryPolicy', () => {
  it('fills missing fields from the default', () => {
    expect(parseRetryPolicy({ initialDelayMs: 100 })).toEqual({ policy: { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100 } });
  });
  it.each([
    [{ maxAttempts: 0 }, 'retryPolicy.maxAttempts'],
    [{ jitter: 2 }, 'retryPolicy.jitter'],
    [{ initialDelayMs: 1.5 }, 'retryPolicy.initialDelayMs'],
    [{ retries: 3 }, 'retryPolicy.retries'],
  ])('refuses %j naming %s', (input, field) => {
    const result = parseRetryPolicy(input);
    expect('errors' in result && Object.keys(result.errors)).toEqual([field]);
  });
});
