import { describe, expect, it } from 'vitest';
import { sqlRetentionFixture } from '../testing/retention-fixture';
import { useTestDatabase } from '../testing/use-test-database';

const database = useTestDatabase(10);
const DAY_MS = 86_400_000;

async function waitUntil(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Without foreign keys from execution details to jobs, the purge itself must not leave a detail that
// a provider receipt wrote while the purge waited for the receipt's lock on the message.
describe('the retention purge racing a provider receipt', () => {
  it('removes and counts the detail the receipt wrote while the batch waited for its message', async () => {
    const pool = database.db.pool;
    const fixture = await sqlRetentionFixture(pool);
    const [env] = fixture.environments;
    const day = new Date(Math.floor(Date.now() / DAY_MS - 120) * DAY_MS);
    const [notificationId] = await fixture.seed([{ environmentId: env, createdAt: new Date(day.getTime() + 3_600_000), jobStatus: 'completed' }]);
    const [{ job_id: jobId }] = (await pool.query(`SELECT job_id FROM messages WHERE notification_id = $1 AND channel = 'email'`, [notificationId])).rows;

    // The receipt: its message locked first (as SqlReceiptRepository does), its detail written after.
    const receipt = await pool.connect();
    try {
      await receipt.query('BEGIN');
      await receipt.query('SELECT id FROM messages WHERE job_id = $1 FOR UPDATE', [jobId]);
      const purging = fixture.repo.purge('notifications', env, day, 100, new Date());
      await waitUntil(async () => (await pool.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%page_jobs%'`)).rowCount! > 0);
      await receipt.query(`INSERT INTO execution_details (environment_id, job_id, notification_id, status, source, detail) VALUES ($1, $2, $3, 'Success', 'Webhook', 'delivered')`, [env, jobId, notificationId]);
      await receipt.query('COMMIT');
      const batch = await purging;
      expect(batch.counts).toMatchObject({ notifications: 1, jobs: 1, executionDetails: 2, messages: 2 });
    } finally {
      receipt.release();
    }
    expect((await pool.query('SELECT count(*)::int AS n FROM execution_details WHERE job_id = $1', [jobId])).rows[0].n).toBe(0);
    expect(await fixture.left(env)).toMatchObject({ notifications: 0, jobs: 0, executionDetails: 0, messages: 0 });
    const [record] = await fixture.repo.days(env, 1);
    expect(record.counts).toMatchObject({ notifications: 1, jobs: 1, executionDetails: 2, messages: 2 });
  }, 30_000);
});
