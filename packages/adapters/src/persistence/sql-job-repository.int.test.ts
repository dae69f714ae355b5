import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { insertQueuedJob } from '../testing/job-rows';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlJobRepository } from './sql-job-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();
let boss: PgBoss;
let jobs: SqlJobRepository;

beforeAll(async () => {
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  const queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  jobs = new SqlJobRepository(database.db.pool, queue, testChannelCipher);
  await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

const queuedJob = (name: string, type: string) => insertQueuedJob(database.db.pool, name, type);

const status = async (jobId: string) => (await database.db.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM jobs WHERE id = $1', [jobId])).rows[0];

describe('SqlJobRepository claims', () => {
  it('leases a step with side effects and only reads one without', async () => {
    const email = await queuedJob('lease-email', 'email');
    const inbox = await queuedJob('lease-inbox', 'in_app');
    const claimed = await jobs.claim([email.notification_id, inbox.notification_id]);
    expect(Object.fromEntries(claimed.map((j) => [j.step.type, { leased: j.leased, attempts: j.attempts }]))).toEqual({
      email: { leased: true, attempts: 1 },
      in_app: { leased: false, attempts: 1 },
    });
    expect(await status(email.job_id)).toEqual({ status: 'running', attempts: 1 });
    expect(await status(inbox.job_id)).toEqual({ status: 'queued', attempts: 0 });
    // A leased job is not claimed again while its lease holds; an unleased one can be read again.
    expect((await jobs.claim([email.notification_id])).length).toBe(0);
    expect((await jobs.claim([inbox.notification_id])).length).toBe(1);
  });

  it('keeps the first recorded result of a step that was run twice without a lease', async () => {
    const inbox = await queuedJob('twice-inbox', 'in_app');
    const [first] = await jobs.claim([inbox.notification_id]);
    const [second] = await jobs.claim([inbox.notification_id]);
    const outcome = (job: typeof first, detail: string) => ({ job, status: 'completed' as const, details: [{ status: 'Success' as const, source: 'Internal' as const, detail }] });
    await jobs.record([outcome(first, 'first')]);
    await jobs.record([outcome(second, 'second')]);
    const details = await database.db.pool.query<{ detail: string }>('SELECT detail FROM execution_details WHERE job_id = $1', [inbox.job_id]);
    expect(details.rows.map((d) => d.detail)).toEqual(['first']);
    expect(await status(inbox.job_id)).toEqual({ status: 'completed', attempts: 1 });
  });

  it('leases by the step type as it is now, not as it was when the job was created', async () => {
    const job = await queuedJob('retyped', 'in_app');
    await database.db.pool.query("UPDATE workflow_steps SET type = 'email' WHERE id = $1", [job.step_id]);
    const [claimed] = await jobs.claim([job.notification_id]);
    expect(claimed.leased).toBe(true);
    expect(await status(job.job_id)).toEqual({ status: 'running', attempts: 1 });
  });

  it('keeps a step that asks to run again unfinished, and runs it again at that time with the next attempt number', async () => {
    const email = await queuedJob('rerun-email', 'email');
    const [first] = await jobs.claim([email.notification_id]);
    const rerunAt = new Date(Date.now() + 60_000);
    const due = await jobs.record([
      { job: first, status: 'delayed', rerunAt, details: [{ status: 'Failed', source: 'Credentials', detail: 'provider error: 503 (retrying)' }] },
    ]);
    expect(due).toEqual([]);
    const row = (await database.db.pool.query<{ status: string; attempts: number; run_at: Date }>('SELECT status, attempts, run_at FROM jobs WHERE id = $1', [email.job_id])).rows[0];
    expect(row).toEqual({ status: 'delayed', attempts: 1, run_at: rerunAt });
    // Not due yet: nothing to claim. Once due, the same job is claimed as attempt 2.
    expect(await jobs.claim([email.notification_id])).toEqual([]);
    await database.db.pool.query("UPDATE jobs SET run_at = now() - interval '1 second' WHERE id = $1", [email.job_id]);
    const [second] = await jobs.claim([email.notification_id]);
    expect({ jobId: second.jobId, attempts: second.attempts }).toEqual({ jobId: email.job_id, attempts: 2 });
    await jobs.record([{ job: second, status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: 'sent' }] }]);
    const details = await database.db.pool.query<{ detail: string; is_retry: boolean }>('SELECT detail, is_retry FROM execution_details WHERE job_id = $1 ORDER BY created_at, id', [email.job_id]);
    expect(details.rows.map((d) => [d.detail, d.is_retry]).sort()).toEqual([['provider error: 503 (retrying)', false], ['sent', true]]);
    expect(await status(email.job_id)).toEqual({ status: 'completed', attempts: 2 });
  });
});
