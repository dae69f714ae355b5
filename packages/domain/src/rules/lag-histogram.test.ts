import { describe, expect, it } from 'vitest';
import { LAG_BOUNDS_MS, lagBucketIndex, lagBucketLabel, lagQuantile } from './lag-histogram';

const histogram = (entries: Record<string, number>) => {
  const counts = new Array<number>(LAG_BOUNDS_MS.length + 1).fill(0);
  for (const [label, n] of Object.entries(entries)) counts[lagBucketIndex(label)] = n;
  return counts;
};

describe('lag histogram', () => {
  it.each([
    [0, '100'],
    [100, '100'],
    [101, '250'],
    [59_999, '60000'],
    [3_600_000, '3600000'],
    [3_600_001, '+Inf'],
  ])('puts %i ms in the bucket %s', (ms, label) => {
    expect(lagBucketLabel(ms)).toBe(label);
    expect(lagBucketIndex(label)).toBeGreaterThanOrEqual(0);
  });

  it('knows no label it did not make', () => {
    expect(lagBucketIndex('7')).toBe(-1);
  });

  it.each([
    ['an empty histogram', {}, 0.5, null],
    ['all in the first bucket, median', { '100': 10 }, 0.5, 50],
    ['all in the first bucket, p95', { '100': 10 }, 0.95, 95],
    ['median at the boundary of two buckets', { '100': 5, '250': 5 }, 0.5, 100],
    ['p95 inside the second bucket', { '100': 5, '250': 5 }, 0.95, 235],
    ['skipping empty buckets', { '100': 1, '5000': 1 }, 0.95, 2_500 + 2_500 * 0.9],
    ['a quantile in +Inf reads as its lower bound', { '100': 1, '+Inf': 9 }, 0.5, 3_600_000],
  ])('%s', (_, entries, q, expected) => {
    expect(lagQuantile(histogram(entries), q)).toBe(expected);
  });
});
