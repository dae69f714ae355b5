import type { ThrottleEntry, ThrottleRepository } from '@herald/domain';
import type { Pool } from 'pg';
import { deleteInBatches } from './batched-delete';
import { jsonParam, prepared } from './sql-params';

// One statement: jobs counted before keep their place; the others add their number to their
// window's counter (one upsert per window, which serializes concurrent counts on its row) and take
// the places just below the new count, in entry order.
const ADMIT = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(ord int, job_id uuid, environment_id uuid, workflow_id uuid, subscriber_id uuid,
    throttle_key text, window_start timestamptz, window_end timestamptz)
), prior AS (
  SELECT a.job_id, a.ordinal FROM throttle_admissions a WHERE a.job_id IN (SELECT job_id FROM input)
), fresh AS (
  SELECT i.*, row_number() OVER (PARTITION BY workflow_id, subscriber_id, throttle_key, window_start ORDER BY ord) AS rank,
    count(*) OVER (PARTITION BY workflow_id, subscriber_id, throttle_key, window_start) AS n
  FROM input i WHERE i.job_id NOT IN (SELECT job_id FROM prior)
), counted AS (
  INSERT INTO throttle_windows AS t (environment_id, workflow_id, subscriber_id, throttle_key, window_start, window_end, count)
  SELECT DISTINCT ON (workflow_id, subscriber_id, throttle_key, window_start) environment_id, workflow_id, subscriber_id, throttle_key, window_start, window_end, n
  FROM fresh ORDER BY workflow_id, subscriber_id, throttle_key, window_start, window_end DESC
  ON CONFLICT (workflow_id, subscriber_id, throttle_key, window_start) DO UPDATE
    SET count = t.count + excluded.count, window_end = GREATEST(t.window_end, excluded.window_end)
  RETURNING t.workflow_id, t.subscriber_id, t.throttle_key, t.window_start, t.count
), placed AS (
  INSERT INTO throttle_admissions (job_id, ordinal)
  SELECT f.job_id, c.count - f.n + f.rank FROM fresh f
  JOIN counted c ON c.workflow_id = f.workflow_id AND c.subscriber_id = f.subscriber_id AND c.throttle_key = f.throttle_key AND c.window_start = f.window_start
  ON CONFLICT (job_id) DO NOTHING
  RETURNING job_id, ordinal
)
SELECT job_id, ordinal FROM placed UNION ALL SELECT job_id, ordinal FROM prior`;

const admitStatement = prepared('herald-throttle-admit', ADMIT);

/** Throttle counters in PostgreSQL: one row per fixed window, one admission row per counted job. */
export class SqlThrottleRepository implements ThrottleRepository {
  constructor(private readonly pool: Pool) {}

  async admit(entries: ThrottleEntry[]): Promise<number[]> {
    if (!entries.length) return [];
    const input = entries.map((e, ord) => ({
      ord,
      job_id: e.jobId,
      environment_id: e.environmentId,
      workflow_id: e.workflowId,
      subscriber_id: e.subscriberId,
      throttle_key: e.throttleKey,
      window_start: e.windowStart.toISOString(),
      window_end: e.windowEnd.toISOString(),
    }));
    const { rows } = await this.pool.query<{ job_id: string; ordinal: number }>(admitStatement([jsonParam(input)]));
    const places = new Map(rows.map((r) => [r.job_id, r.ordinal]));
    return entries.map((e) => {
      const place = places.get(e.jobId);
      if (place === undefined) throw new Error(`throttle job ${e.jobId} was not counted`);
      return place;
    });
  }

  async purge(windowsClosedBefore: Date, admittedBefore: Date): Promise<number> {
    const windows = await deleteInBatches(this.pool, 'throttle_windows', 'window_end < $1::timestamptz', windowsClosedBefore);
    return windows + (await deleteInBatches(this.pool, 'throttle_admissions', 'created_at < $1::timestamptz', admittedBefore));
  }
}
