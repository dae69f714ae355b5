import type { OverviewRepository } from '../../ports/overview-repository';
import type { OverviewTally } from './overview-tally';

/** Days of hourly counts kept: the Overview shows 7, one more covers a day boundary and clock skew. */
export const OVERVIEW_RETENTION_DAYS = 8;

/**
 * Adds what the tally counted to the rollup, in one statement; counts a failed flush could not
 * store are kept for the next. Run every few seconds and once at shutdown: a process that crashes
 * loses at most the counts since its last flush (the activity log, not the Overview, is the record).
 */
export class FlushOverviewCounts {
  constructor(
    private readonly tally: OverviewTally,
    private readonly overview: OverviewRepository,
  ) {}

  async execute(): Promise<number> {
    const counts = this.tally.drain();
    if (!counts.length) return 0;
    try {
      await this.overview.add(counts);
    } catch (error) {
      this.tally.restore(counts);
      throw error;
    }
    return counts.length;
  }

  /** Drops counts older than the retention. */
  purge(now: Date = new Date()): Promise<number> {
    return this.overview.purgeBefore(new Date(now.getTime() - OVERVIEW_RETENTION_DAYS * 24 * 3_600_000));
  }
}
