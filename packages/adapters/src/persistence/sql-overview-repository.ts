import type { OverviewCount, OverviewMetric, OverviewRepository } from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid } from './sql-params';

/**
 * The Overview's rollup. Each process adds what it counted in one INSERT of column arrays (in key
 * order, so two processes adding the same keys lock them in the same order); a read is a range of
 * the primary key, (environment, hour), summed per hour or day.
 */
export class SqlOverviewRepository implements OverviewRepository {
  constructor(private readonly pool: Pool) {}

  async add(counts: readonly OverviewCount[]): Promise<void> {
    if (!counts.length) return;
    await this.pool.query(
      `INSERT INTO overview_counts AS o (environment_id, hour, metric, channel, provider_id, outcome, count)
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
       ORDER BY 1, 2, 3, 4, 5, 6
       ON CONFLICT (environment_id, hour, metric, channel, provider_id, outcome) DO UPDATE SET count = o.count + excluded.count`,
      [
        counts.map((c) => c.environmentId),
        counts.map((c) => c.hour),
        counts.map((c) => c.metric),
        counts.map((c) => c.channel),
        counts.map((c) => c.providerId),
        counts.map((c) => c.outcome),
        counts.map((c) => c.count),
      ],
    );
  }

  async read(environmentId: string, from: Date, to: Date, per: 'hour' | 'day'): Promise<OverviewCount[]> {
    if (!isUuid(environmentId)) return [];
    const { rows } = await this.pool.query<{ start: Date; metric: OverviewMetric; channel: string; provider_id: string; outcome: string; count: string }>(
      `SELECT date_trunc($4, hour, 'UTC') AS start, metric, channel, provider_id, outcome, sum(count) AS count
         FROM overview_counts
        WHERE environment_id = $1 AND hour >= $2 AND hour < $3
        GROUP BY 1, 2, 3, 4, 5`,
      [environmentId, from, to, per],
    );
    return rows.map((r) => ({ environmentId, hour: r.start, metric: r.metric, channel: r.channel, providerId: r.provider_id, outcome: r.outcome, count: Number(r.count) }));
  }

  async purgeBefore(before: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM overview_counts WHERE hour < $1', [before]);
    return rowCount ?? 0;
  }
}
