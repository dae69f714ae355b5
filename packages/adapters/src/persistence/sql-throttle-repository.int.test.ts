import { randomUUID } from 'node:crypto';
import type { ThrottleEntry } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlThrottleRepository } from './sql-throttle-repository';

const database = useTestDatabase();
let throttles: SqlThrottleRepository;

beforeAll(() => {
  throttles = new SqlThrottleRepository(database.db.pool);
});

const HOUR = 3_600_000;

/** A job counted into the hour-long window that starts at `windowStart`, for one subscriber of one workflow. */
function entry(windowStart: Date, subscriberId: string = randomUUID(), workflowId: string = randomUUID()): ThrottleEntry {
  return { jobId: randomUUID(), environmentId: randomUUID(), workflowId, subscriberId, throttleKey: '', windowStart, windowEnd: new Date(windowStart.getTime() + HOUR) };
}

async function count(table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const { rows } = await database.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return rows[0].n;
}

describe('SqlThrottleRepository', () => {
  it('keeps where each window closes, and purges the windows closed before the cut-off and the admissions made before theirs', async () => {
    const now = Date.now();
    const closed = entry(new Date(now - 3 * HOUR)); // closed two hours ago
    const open = entry(new Date(now - HOUR / 2)); // closes in half an hour
    const sameWindow = entry(open.windowStart, open.subscriberId, open.workflowId);
    expect(await throttles.admit([closed, open, sameWindow])).toEqual([1, 1, 2]);
    const { rows } = await database.db.pool.query<{ window_end: Date }>('SELECT window_end FROM throttle_windows WHERE subscriber_id = $1', [open.subscriberId]);
    expect(rows.map((r) => r.window_end.getTime())).toEqual([open.windowEnd.getTime()]);
    // An admission made long ago (a job whose throttle step cannot run again by now).
    const old = randomUUID();
    await database.db.pool.query(`INSERT INTO throttle_admissions (job_id, ordinal, created_at) VALUES ($1, 1, now() - interval '2 days')`, [old]);

    const purged = await throttles.purge(new Date(now - HOUR), new Date(now - 24 * HOUR));
    expect(purged).toBe(2);
    expect(await count('throttle_windows', 'subscriber_id = $1', [closed.subscriberId])).toBe(0);
    expect(await count('throttle_windows', 'subscriber_id = $1', [open.subscriberId])).toBe(1);
    expect(await count('throttle_admissions', 'job_id = $1', [old])).toBe(0);
    // The recent admissions stay: a job counted again keeps its place.
    expect(await throttles.admit([sameWindow])).toEqual([2]);
    expect(await count('throttle_admissions', 'job_id = ANY($1::uuid[])', [[closed.jobId, open.jobId, sameWindow.jobId]])).toBe(3);
  });

  it('keeps windows counted before their end was stored', async () => {
    const legacy = randomUUID();
    await database.db.pool.query(
      `INSERT INTO throttle_windows (environment_id, workflow_id, subscriber_id, throttle_key, window_start, count) VALUES ($1, $2, $3, '', now() - interval '30 days', 1)`,
      [randomUUID(), randomUUID(), legacy],
    );
    await throttles.purge(new Date(), new Date(Date.now() - 24 * HOUR));
    expect(await count('throttle_windows', 'subscriber_id = $1', [legacy])).toBe(1);
  });
});
