/**
 * What the Overview counts, per environment and hour:
 * - `trigger`: accepted triggers;
 * - `delivery`: channel steps ended, by channel, provider and outcome (`sent`, `skipped`, `failed`);
 * - `provider_failure`: failed provider attempts, by channel and provider (retried, failed over or final);
 * - `lag`: sent channel steps by channel and delivery lag, `outcome` holding the histogram bucket's
 *   upper bound in milliseconds (`LAG_BOUNDS_MS`, or `+Inf`).
 */
export type OverviewMetric = 'trigger' | 'delivery' | 'provider_failure' | 'lag';

export interface OverviewCount {
  environmentId: string;
  /** The start of the hour (UTC) it happened in. */
  hour: Date;
  metric: OverviewMetric;
  /** '' where the metric has none. */
  channel: string;
  providerId: string;
  outcome: string;
  count: number;
}

export interface LagSummary {
  /** Sent steps measured. */
  count: number;
  /** Estimated from the lag histogram (`lagQuantile`): exact to the bucket it falls in. null with no sends. */
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface OverviewBucket {
  /** Start of the hour or day (UTC). */
  start: Date;
  triggers: number;
  deliveries: Array<{ channel: string; outcome: string; count: number }>;
  providerFailures: Array<{ providerId: string; channel: string; count: number }>;
  lag: LagSummary;
  lagByChannel: Array<{ channel: string } & LagSummary>;
}

export interface Overview {
  generatedAt: Date;
  /** The last 24 hours, one bucket per hour, oldest first; the last is the hour under way. */
  hourly: OverviewBucket[];
  /** The last 7 days, one bucket per UTC day, oldest first; the last is today so far. */
  daily: OverviewBucket[];
}
