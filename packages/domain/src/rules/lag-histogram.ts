/**
 * Delivery lag is kept as a histogram (counts per bucket), not as samples: buckets of hours and
 * channels add up, so percentiles of any period come from a few rows. Upper bounds in milliseconds;
 * a last bucket (`+Inf`) holds everything above.
 */
export const LAG_BOUNDS_MS = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000] as const;

export const LAG_INFINITY = '+Inf';

/** The label of the bucket a lag falls in: its upper bound, as stored. */
export function lagBucketLabel(lagMs: number): string {
  const bound = LAG_BOUNDS_MS.find((b) => lagMs <= b);
  return bound === undefined ? LAG_INFINITY : String(bound);
}

/** The index of a stored label in `LAG_BOUNDS_MS` (its length for `+Inf`); -1 for an unknown one. */
export function lagBucketIndex(label: string): number {
  if (label === LAG_INFINITY) return LAG_BOUNDS_MS.length;
  return (LAG_BOUNDS_MS as readonly number[]).indexOf(Number(label));
}

/**
 * The q-quantile (0..1) of a histogram (`counts[i]` in bucket i), interpolated linearly inside its
 * bucket as Prometheus' histogram_quantile does; a quantile in the `+Inf` bucket is its lower bound.
 * null for an empty histogram.
 */
export function lagQuantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const inBucket = counts[i];
    if (inBucket && below + inBucket >= rank) {
      if (i >= LAG_BOUNDS_MS.length) return LAG_BOUNDS_MS[LAG_BOUNDS_MS.length - 1];
      const lower = i === 0 ? 0 : LAG_BOUNDS_MS[i - 1];
      return Math.round(lower + (LAG_BOUNDS_MS[i] - lower) * ((rank - below) / inBucket));
    }
    below += inBucket;
  }
  return LAG_BOUNDS_MS[LAG_BOUNDS_MS.length - 1];
}
