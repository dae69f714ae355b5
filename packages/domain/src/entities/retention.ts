/** Days delivery history is kept when neither the environment nor HERALD_RETENTION_DAYS says otherwise. */
export const DEFAULT_RETENTION_DAYS = 90;
/** The bounds an environment's retention may take: at least a day, at most ten years. */
export const RETENTION_DAYS_RANGE = { min: 1, max: 3650 } as const;

/** What one environment keeps delivery history for: its own setting, or the service default. */
export interface RetentionView {
  environment: { id: string; slug: string };
  /** The days in force. */
  days: number;
  /** The environment's own setting; null: it follows the service default. */
  own: number | null;
}

/** A table whose rows the purge walks day by day; the rest go with them (see PurgeCounts). */
export type HistorySource = 'notifications' | 'events' | 'webhook_events';
export const HISTORY_SOURCES: readonly HistorySource[] = ['notifications', 'events', 'webhook_events'];

/**
 * Rows removed, per table. A notification takes its jobs, their execution details, its messages and
 * the digest windows it led; an outbound webhook event its deliveries and their attempts.
 */
export interface PurgeCounts {
  notifications: number;
  jobs: number;
  executionDetails: number;
  messages: number;
  digestWindows: number;
  events: number;
  webhookEvents: number;
  webhookDeliveries: number;
  webhookAttempts: number;
}

export const NO_PURGE_COUNTS: PurgeCounts = {
  notifications: 0,
  jobs: 0,
  executionDetails: 0,
  messages: 0,
  digestWindows: 0,
  events: 0,
  webhookEvents: 0,
  webhookDeliveries: 0,
  webhookAttempts: 0,
};

export function addCounts(a: PurgeCounts, b: PurgeCounts): PurgeCounts {
  const sum = { ...a };
  for (const key of Object.keys(sum) as Array<keyof PurgeCounts>) sum[key] += b[key];
  return sum;
}

/**
 * The purge's record of one environment's UTC day. `purging`: begun, or it keeps rows in flight
 * (`kept`) that later runs look at again; `purged`: done, never visited again.
 */
export interface RetentionDayRecord {
  environmentId: string;
  /** Midnight UTC of the day. */
  day: Date;
  state: 'purging' | 'purged';
  /** Everything removed from the day, over every run. */
  counts: PurgeCounts;
  /** Rows of the day the purge had to keep so far. */
  kept: number;
  startedAt: Date;
  purgedAt: Date | null;
}
