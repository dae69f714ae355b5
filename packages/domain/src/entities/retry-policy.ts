import type { FieldErrors } from '../errors';

/**
 * How an environment retries provider sends. Attempts count every send to any provider; the delay
 * before retry n is `initialDelayMs * multiplier^(n-1)`, capped at `maxDelayMs`, spread by ±`jitter`.
 */
export interface RetryPolicy {
  /** Sends of one message, over every integration, before the step fails. */
  maxAttempts: number;
  initialDelayMs: number;
  multiplier: number;
  maxDelayMs: number;
  /** 0..1: each delay is moved by up to this fraction, so retries of many messages do not arrive at once. */
  jitter: number;
  /** Consecutive transient failures of one integration after which the next one takes over. */
  failoverAfter: number;
}

/** 6 attempts over about 15 minutes (30 s, 1, 2, 4, 8 min between them). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  initialDelayMs: 30_000,
  multiplier: 2,
  maxDelayMs: 600_000,
  jitter: 0.2,
  failoverAfter: 2,
};

const LIMITS: Record<keyof RetryPolicy, [min: number, max: number]> = {
  maxAttempts: [1, 50],
  initialDelayMs: [0, 86_400_000],
  multiplier: [1, 10],
  maxDelayMs: [0, 86_400_000],
  jitter: [0, 1],
  failoverAfter: [1, 50],
};

/**
 * A complete policy from a partial one (missing fields from `base`), or the fields that are wrong.
 * Field names are reported as `retryPolicy.<field>`.
 */
export function parseRetryPolicy(input: unknown, base: RetryPolicy = DEFAULT_RETRY_POLICY): { policy: RetryPolicy } | { errors: FieldErrors } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { errors: { retryPolicy: { messages: ['must be an object'], value: input } } };
  }
  const errors: FieldErrors = {};
  const policy = { ...base };
  for (const [field, value] of Object.entries(input)) {
    const limits = LIMITS[field as keyof RetryPolicy];
    if (!limits) {
      errors[`retryPolicy.${field}`] = { messages: [`is not a retry policy field (${Object.keys(LIMITS).join(', ')})`], value };
      continue;
    }
    const [min, max] = limits;
    const integer = field !== 'multiplier' && field !== 'jitter';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      errors[`retryPolicy.${field}`] = { messages: [`must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`], value };
      continue;
    }
    policy[field as keyof RetryPolicy] = value;
  }
  return Object.keys(errors).length ? { errors } : { policy };
}
