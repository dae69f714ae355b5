import { token } from '../shared/token';
import type { OverviewCount } from '../entities/overview';

export const OverviewRepository = token<OverviewRepository>('OverviewRepository');

/** The Overview's rollup: counts per environment, hour and key, summed as they are added. */
export interface OverviewRepository {
  /** Adds the counts to the stored ones, in one statement; concurrent adders never lose an increment. */
  add(counts: readonly OverviewCount[]): Promise<void>;
  /**
   * The environment's counts with `hour` in [from, to), summed per `per` bucket (hour, or UTC day:
   * `hour` is then the day's start) and key.
   */
  read(environmentId: string, from: Date, to: Date, per: 'hour' | 'day'): Promise<OverviewCount[]>;
  /** Drops hours before `before`; returns how many rows. */
  purgeBefore(before: Date): Promise<number>;
}
