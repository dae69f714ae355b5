import { InAppStepHandler, inlineRunner, RunNotifications, type DeliveryWorkflow, type JobRepository, type RunInline, type StepHandlers, type TriggerAcceptance } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue, STEPS_QUEUE } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlEventRepository } from './sql-event-repository';
import { TriggerBatcher } from './trigger-batcher';

const database = useTestDatabase();
let boss: PgBoss;
let queue: PgBossDeliveryQueue;
let acceptance: (transactionId: string) => TriggerAcceptance;
let env: string;
let greet: DeliveryWorkflow;

beforeAll(async () => {
  const { pool, prisma } = database.db;
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  const { environments } = await new PrismaTenancyRepository(prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
  env = environments[0].id;
  await pool.query(
    `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'hello', 'hello') RETURNING id)
     INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values) SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"hi"}' FROM w`,
    [env],
  );
  const workflow = (await new SqlEventRepository(pool, queue).findWorkflow(env, 'hello'))!;
  await pool.query(
    `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'greet', 'greet') RETURNING id)
     INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
     SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"Hi {{subscriber.firstName}}, order {{payload.order}}"}'::jsonb FROM w
     UNION ALL SELECT id, 'after', 'after', 'custom', 1, '{}'::jsonb FROM w`,
    [env],
  );
  greet = (await new SqlEventRepository(pool, queue).findWorkflow(env, 'greet'))!;
  await pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'grace', 'Grace'), ($1, 'linus', 'Linus'), ($1, 'quiet', 'Quiet')`, [env]);
  await pool.query(
    `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
     SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'quiet'`,
  );
  acceptance = (transactionId) => ({
    environmentId: env,
    workflow,
    transactionId,
    payload: {},
    overrides: {},
    to: 'ada',
    actor: null,
    tenant: null,
    contextKeys: [],
    recipients: { subscriberIds: ['ada'], upserts: [], topics: [] },
    upserts: [],
  });
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

/** A pool whose first multi-trigger transaction commits but loses the COMMIT's reply. */
function poolLosingOneCommitReply(pool: Pool): Pool {
  let lost = false;
  const wrapped = Object.create(pool) as Pool;
  wrapped.connect = (async () => {
    const client = await pool.connect();
    let batchOfMany = false;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = (async (...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: string[] };
      if (config?.name === 'herald-accept-triggers' && JSON.parse(config.values![0]).length > 1) batchOfMany = true;
      const result = await query(...args);
      if (args[0] === 'COMMIT' && batchOfMany && !lost) {
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return result;
    }) as PoolClient['query'];
    proxy.release = (...args: Parameters<PoolClient['release']>) => client.release(...args);
    return proxy;
  }) as Pool['connect'];
  return wrapped;
}

describe('TriggerBatcher', () => {
  it('answers accepted, not duplicate, for triggers whose batch committed though the reply was lost', async () => {
    const batcher = new TriggerBatcher(poolLosingOneCommitReply(database.db.pool), queue);
    // More triggers at once than transactions in flight, so later ones are accepted in batches.
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => batcher.accept(acceptance(`lost-reply-${i}`))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    const { rows } = await database.db.pool.query<{ n: number; notifications: number }>(
      "SELECT count(*)::int AS n, (SELECT count(*)::int FROM notifications WHERE transaction_id LIKE 'lost-reply-%') AS notifications FROM events WHERE transaction_id LIKE 'lost-reply-%'",
    );
    expect(rows[0]).toEqual({ n: 12, notifications: 12 });
    expect(outcomes.map((o) => (o.accepted ? o.notifications : -1))).toEqual(Array(12).fill(1));
    // A real duplicate is still refused.
    expect(await batcher.accept(acceptance('lost-reply-0'))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
  });
});

describe('TriggerBatcher running the first in-app step inline', () => {
  const steps = new RunNotifications({} as JobRepository, { in_app: new InAppStepHandler('herald') } as Partial<StepHandlers> as StepHandlers);
  const runInline = (workflow: DeliveryWorkflow): RunInline => inlineRunner(steps, workflow)!;
  const trigger = (workflow: DeliveryWorkflow, transactionId: string, to: string[], upserts: TriggerAcceptance['upserts'] = []): TriggerAcceptance => ({
    ...acceptance(transactionId),
    workflow,
    payload: { order: 7 },
    to,
    recipients: { subscriberIds: to, upserts, topics: [] },
    upserts,
  });
  const rows = async <T>(sql: string, params: unknown[] = []) => (await database.db.pool.query(sql, params)).rows as T[];
  const notification = async (transactionId: string, subscriberId: string) =>
    (
      await rows<{ id: string; inline_job: Record<string, any> | null }>(
        `SELECT n.id, n.inline_job FROM notifications n JOIN subscribers s ON s.id = n.subscriber_id WHERE n.transaction_id = $1 AND s.subscriber_id = $2`,
        [transactionId, subscriberId],
      )
    )[0];
  const jobsOf = (notificationId: string) => rows<{ step_id: string; status: string }>('SELECT step_id, status FROM jobs WHERE notification_id = $1 ORDER BY position', [notificationId]);
  const queuedIn = async (notificationId: string) =>
    (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->'notificationIds' ? $2`, [STEPS_QUEUE, notificationId]))[0].n;

  it('writes the step with the event for existing recipients: their message, no job row, the next step queued; a new subscriber gets every job', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const outcome = await batcher.accept(trigger(greet, 'inline-1', ['grace', 'newcomer']), runInline(greet));
    expect(outcome).toMatchObject({ accepted: true, notifications: 2 });
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status])).toEqual([['grace', 'completed']]);

    const grace = await notification('inline-1', 'grace');
    expect(grace.inline_job).toMatchObject({ stepId: 'inbox', type: 'in_app', status: 'completed', providerId: 'herald' });
    expect(await jobsOf(grace.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await queuedIn(grace.id)).toBe(1);
    const [message] = await rows<{ body: string; job_id: string; channel: string }>('SELECT body, job_id, channel FROM messages WHERE notification_id = $1', [grace.id]);
    expect(message).toEqual({ body: 'Hi Grace, order 7', job_id: grace.inline_job!.id, channel: 'in_app' });

    const newcomer = await notification('inline-1', 'newcomer');
    expect(newcomer.inline_job).toBeNull();
    expect(await jobsOf(newcomer.id)).toEqual([
      { step_id: 'inbox', status: 'queued' },
      { step_id: 'after', status: 'pending' },
    ]);
    expect(await queuedIn(newcomer.id)).toBe(1);
    expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [newcomer.id])).toEqual([]);
  });

  it('leaves no queue work when every recipient ran the only step inline, and a reused transactionId writes nothing', async () => {
    const hello = acceptance('x').workflow;
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const before = (await rows<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [STEPS_QUEUE]))[0].n;
    const outcomes = await Promise.all(['a', 'b', 'c'].map((t) => batcher.accept(trigger(hello, `inline-only-${t}`, ['grace', 'linus']), runInline(hello))));
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual([2, 2, 2]);
    expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [STEPS_QUEUE]))[0].n).toBe(before);
    const written = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN notifications n ON n.id = m.notification_id
       WHERE n.transaction_id LIKE 'inline-only-%' AND m.job_id = (n.inline_job->>'id')::uuid AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id)`,
    );
    expect(written[0].n).toBe(6);

    expect(await batcher.accept(trigger(hello, 'inline-only-a', ['grace']), runInline(hello))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE transaction_id = 'inline-only-a'`))[0].n).toBe(2);
  });

  it('records a step skipped by the preferences, and leaves a recipient the trigger upserts to its job', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const outcome = await batcher.accept(trigger(greet, 'inline-2', ['quiet', 'linus'], [{ subscriberId: 'linus', firstName: 'Torvalds' }]), runInline(greet));
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status])).toEqual([['quiet', 'skipped']]);
    const quiet = await notification('inline-2', 'quiet');
    expect(quiet.inline_job).toMatchObject({ status: 'skipped', details: [{ detail: 'skipped: preference in_app disabled by subscriber (global)' }] });
    expect(await jobsOf(quiet.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [quiet.id])).toEqual([]);
    const linus = await notification('inline-2', 'linus');
    expect(linus.inline_job).toBeNull();
    expect(await jobsOf(linus.id)).toEqual([
      { step_id: 'inbox', status: 'queued' },
      { step_id: 'after', status: 'pending' },
    ]);
    expect((await rows<{ first_name: string }>(`SELECT first_name FROM subscribers WHERE subscriber_id = 'linus'`))[0].first_name).toBe('Torvalds');
  });

  it('answers accepted for inline triggers whose statement committed though its reply was lost', async () => {
    const hello = acceptance('x').workflow;
    let lost = false;
    const pool = Object.create(database.db.pool) as Pool;
    pool.query = (async (config: { name?: string; values?: string[] }, ...rest: unknown[]) => {
      const result = await (database.db.pool.query as (...args: unknown[]) => Promise<unknown>)(config, ...rest);
      if (config?.name === 'herald-accept-triggers' && JSON.parse(config.values![0]).length > 1 && !lost) {
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return result;
    }) as unknown as Pool['query'];
    pool.connect = (() => database.db.pool.connect()) as Pool['connect'];
    const batcher = new TriggerBatcher(pool, queue);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => batcher.accept(trigger(hello, `inline-lost-${i}`, ['grace']), runInline(hello))));
    expect(lost).toBe(true);
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    // The observers hear every message written, the ones the lost reply was about included.
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual(Array(12).fill(1));
    const counts = await rows<{ events: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE transaction_id LIKE 'inline-lost-%') AS events,
              (SELECT count(*)::int FROM messages WHERE transaction_id LIKE 'inline-lost-%') AS messages`,
    );
    expect(counts[0]).toEqual({ events: 12, messages: 12 });
  });

  it('renders with what another trigger of the batch upserts, and falls back to jobs when the step engine throws', async () => {
    const hello = acceptance('x').workflow;
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const failing: RunInline = async () => {
      throw new Error('engine blew up');
    };
    // Four triggers take every transaction slot, so the next three are accepted as one batch.
    const fillers = ['a', 'b', 'c', 'd'].map((t) => batcher.accept(trigger(hello, `inline-3-${t}`, ['grace']), runInline(hello)));
    const [renamer, reader, broken] = await Promise.all([
      batcher.accept(trigger(greet, 'inline-3a', ['linus'], [{ subscriberId: 'linus', firstName: 'Renamed' }]), runInline(greet)),
      batcher.accept(trigger(greet, 'inline-3b', ['linus']), runInline(greet)),
      batcher.accept(trigger(greet, 'inline-3c', ['grace']), failing),
    ]);
    await Promise.all(fillers);
    expect([renamer, reader, broken].map((o) => o.accepted && o.inline.length)).toEqual([0, 0, 0]);
    for (const [transactionId, subscriberId] of [['inline-3b', 'linus'], ['inline-3c', 'grace']]) {
      const n = await notification(transactionId, subscriberId);
      expect(n.inline_job).toBeNull();
      expect((await jobsOf(n.id)).map((j) => j.status)).toEqual(['queued', 'pending']);
      expect(await queuedIn(n.id)).toBe(1);
    }
  });

  it('runs inline for a recipient named by an object that sets nothing but its subscriberId', async () => {
    const hello = acceptance('x').workflow;
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const outcome = await batcher.accept(trigger(hello, 'inline-4', ['grace'], [{ subscriberId: 'grace' }]), runInline(hello));
    expect(outcome.accepted && outcome.inline.map((o) => o.job.subscriber.subscriberId)).toEqual(['grace']);
    const grace = await notification('inline-4', 'grace');
    expect(grace.inline_job).toMatchObject({ status: 'completed' });
    expect(await jobsOf(grace.id)).toEqual([]);
  });
});
