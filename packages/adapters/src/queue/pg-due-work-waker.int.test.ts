import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PrismaTenancyRepository } from '../persistence/prisma-tenancy-repository';
import { insertQueuedJob } from '../testing/job-rows';
import { useTestDatabase } from '../testing/use-test-database';
import { PgDueWorkWaker } from './pg-due-work-waker';

const database = useTestDatabase();
beforeAll(async () => {
  await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
});
afterEach(() => vi.restoreAllMocks());

describe('PgDueWorkWaker', () => {
  it('starts delayed work no earlier than its due time, even when timers fire early', async () => {
    const { pool } = database.db;
    const job = await insertQueuedJob(pool, 'due-early', 'in_app');
    const { rows } = await pool.query<{ at: string }>(
      `UPDATE jobs SET status = 'delayed', run_at = date_trunc('milliseconds', now() + interval '300 milliseconds') WHERE id = $1
       RETURNING (extract(epoch FROM run_at) * 1000)::bigint AS at`,
      [job.job_id],
    );
    const dueAt = Number(rows[0].at);
    // Every timer fires 5 ms before its time, as an early libuv timer would (by up to a millisecond).
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => realSetTimeout(fn, Math.max(0, (ms ?? 0) - 5))) as typeof setTimeout);

    const started: Array<{ ids: string[]; now: number }> = [];
    const waker = new PgDueWorkWaker(pool, undefined, 60_000);
    await waker.start(async (ids) => void started.push({ ids, now: Date.now() }));
    try {
      for (let waited = 0; !started.length && waited < 3_000; waited += 20) await new Promise((resolve) => realSetTimeout(resolve, 20));
      expect(started).toHaveLength(1);
      expect(started[0].ids).toEqual([job.notification_id]);
      expect(started[0].now).toBeGreaterThanOrEqual(dueAt);
    } finally {
      await waker.stop();
    }
  });
});
