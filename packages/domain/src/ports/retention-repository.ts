import type { HistorySource, PurgeCounts, RetentionDayRecord } from '../entities/retention';
import { token } from '../shared/token';

export const RetentionRepository = token<RetentionRepository>('RetentionRepository');

/** What one batch of a pass did. */
export interface PurgeBatch {
  counts: PurgeCounts;
  /** Rows looked at: fewer than the limit asked for when the pass reached its end. */
  scanned: number;
  /** Of those, rows kept because they are in flight. */
  kept: number;
}

export interface RecheckBatch extends PurgeBatch {
  /** The last kept row looked at (the next batch starts after it); null when none was. */
  last: string | null;
}

export interface RetentionProgress {
  /** Days begun but not done (they keep rows in flight, or a run stopped in them), oldest first. */
  open: Date[];
  /** The latest day with a record, done or not; null before the first purge. */
  latest: Date | null;
}

/**
 * Delivery history as the retention purge sees it: per environment and UTC day (midnight UTC as a
 * Date), notifications (with their jobs, execution details, messages and the digest windows they
 * led) and events, and the purge's record of each day.
 *
 * In flight, never removed whatever its age: a notification with a job pending, queued, running or
 * delayed (a step waiting for its turn, its time or its digest), with a job merged into a digest
 * still open (its leader reads the event when the digest closes), whose event is still fanning out,
 * or with a message snoozed until after `now`; an event still fanning out or with a notification left.
 */
export interface RetentionRepository {
  progress(environmentId: string): Promise<RetentionProgress>;
  /** The earliest day in [from, before) with a notification or event of the environment (from null: any day before); null when none. */
  oldestDay(environmentId: string, from: Date | null, before: Date): Promise<Date | null>;
  /**
   * Continues the day's pass over `source` after the last row it looked at, at most `limit` rows in
   * creation order: removes those not in flight with what belongs to them, records the others as
   * kept, and adds what it removed to the day's counts, in one transaction. Concurrent calls for one
   * day take turns; no row is removed or counted twice, and rows put back behind the pass (a
   * restore) are not its business.
   */
  purge(source: HistorySource, environmentId: string, day: Date, limit: number, now: Date): Promise<PurgeBatch>;
  /** Looks again at the day's kept rows of `source` (ids after `after`, at most `limit`): removes and counts those no longer in flight. */
  recheck(source: HistorySource, environmentId: string, day: Date, after: string | null, limit: number, now: Date): Promise<RecheckBatch>;
  /** Ends a run over the day: it is done (`purged`, at `now`) when it keeps nothing. Returns its record. */
  closeDay(environmentId: string, day: Date, now: Date): Promise<RetentionDayRecord>;
  /** The environment's day records, latest first, at most `limit`. */
  days(environmentId: string, limit: number): Promise<RetentionDayRecord[]>;
}
