import { InAppStepHandler, inlineRunner, RunNotifications, type AcceptOutcome, type DeliveryWorkflow, type JobRepository, type RunInline, type StepHandlers, type TriggerAcceptance } from '@herald/domain';
import pg, { type Pool, type PoolClient } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue, STEPS_QUEUE } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlEventRepository } from './sql-event-repository';
import { TriggerBatcher } from './trigger-batcher';

const database = useTestDatabase();

/**
 * The triggers of an accept statement: the elements of its first parameter, the array of their event
 * ids, sent in PostgreSQL's binary format (`arrayParam`), whose one dimension's length is at byte 12.
 */
const acceptedInBatch = (values: unknown[]) => (values[0] as Buffer).readInt32BE(12);
/** Whether a named statement is the accept statement (of either kind: with the channels merge or without). */
const isAccept = (name: string | undefined) => name === 'herald-accept-triggers' || name === 'herald-accept-triggers-channels';
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
      const config = args[0] as { name?: string; values?: unknown[] };
      if (isAccept(config?.name) && acceptedInBatch(config.values!) > 1) batchOfMany = true;
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

/**
 * A pool that records the number of triggers of each accept statement sent in a transaction, in the
 * order they are sent. With `hold`, the first transaction starts only once that promise settles.
 */
function poolRecordingBatches(pool: Pool, sizes: number[], hold?: Promise<void>): Pool {
  const wrapped = Object.create(pool) as Pool;
  wrapped.query = pool.query.bind(pool) as Pool['query'];
  let first = true;
  wrapped.connect = (async () => {
    if (first && hold) {
      first = false;
      await hold;
    }
    const client = await pool.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = ((...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: unknown[] };
      if (isAccept(config?.name)) sizes.push(acceptedInBatch(config.values!));
      return query(...args);
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

  it('keeps with a topic trigger whether it also named subscribers directly: their notifications exist before its fan-out', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const topics = [{ topicKey: 'news', exclude: [] }];
    await batcher.accept({ ...acceptance('direct-and-topic'), recipients: { subscriberIds: ['ada'], upserts: [], topics } });
    await batcher.accept({ ...acceptance('topic-only'), recipients: { subscriberIds: [], upserts: [], topics } });
    const stored = await database.db.pool.query<{ transaction_id: string; direct: boolean }>(
      `SELECT transaction_id, (fanout_cursor->>'direct')::boolean AS direct FROM events WHERE transaction_id IN ('direct-and-topic', 'topic-only') ORDER BY transaction_id`,
    );
    expect(stored.rows).toEqual([
      { transaction_id: 'direct-and-topic', direct: true },
      { transaction_id: 'topic-only', direct: false },
    ]);
  });

  it('sends a lone trigger at once, and starts a batch beside one in flight only once enough triggers wait', async () => {
    const sizes: number[] = [];
    const batcher = new TriggerBatcher(poolRecordingBatches(database.db.pool, sizes), queue);
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => batcher.accept(acceptance(`batching-${i}`))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    // The first goes straight through; while it is in flight, the others wait until 16 can go
    // together (twice), and the last 7 go once nothing is in flight (or they waited their limit).
    // The statements may reach the database in another order than the batches were made.
    expect(sizes.sort((a, b) => a - b)).toEqual([1, 7, 16, 16]);
    const { rows } = await database.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE transaction_id LIKE 'batching-%'");
    expect(rows[0].n).toBe(40);
  });

  it('lets a few triggers go beside a batch held up in flight once they have waited their limit', async () => {
    const sizes: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batcher = new TriggerBatcher(poolRecordingBatches(database.db.pool, sizes, held), queue, 50);
    const first = batcher.accept(acceptance('held-0'));
    const started = performance.now();
    const others = await Promise.all([batcher.accept(acceptance('held-1')), batcher.accept(acceptance('held-2'))]);
    // Accepted while the first is still held, after waiting about the limit, together.
    expect(others.every((o) => o.accepted)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(sizes).toEqual([2]);
    release();
    expect((await first).accepted).toBe(true);
    expect(sizes).toEqual([2, 1]);
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
      await rows<{ id: string; inline: Record<string, any> | null }>(
        `SELECT n.id, CASE WHEN n.inline_job_id IS NOT NULL THEN jsonb_build_object('id', n.inline_job_id, 'stepId', n.inline_step_id, 'type', n.inline_step_type,
           'position', n.inline_position, 'status', n.inline_status, 'providerId', n.inline_provider_id, 'details', n.inline_details) END AS inline
         FROM notifications n JOIN subscribers s ON s.id = n.subscriber_id WHERE n.transaction_id = $1 AND s.subscriber_id = $2`,
        [transactionId, subscriberId],
      )
    )[0];
  const jobsOf = (notificationId: string) => rows<{ step_id: string; status: string }>('SELECT step_id, status FROM jobs WHERE notification_id = $1 ORDER BY position', [notificationId]);
  const queuedIn = async (notificationId: string) =>
    (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->'notificationIds' ? $2`, [STEPS_QUEUE, notificationId]))[0].n;
  /** Accepts `triggers` together: four other triggers take every transaction slot first, so these wait and are written as one batch. */
  const inOneBatch = async (batcher: TriggerBatcher, tag: string, triggers: () => Promise<AcceptOutcome>[]) => {
    const hello = acceptance('x').workflow;
    const fillers = ['a', 'b', 'c', 'd'].map((t) => batcher.accept(trigger(hello, `${tag}-${t}`, ['grace']), runInline(hello)));
    const outcomes = await Promise.all(triggers());
    await Promise.all(fillers);
    return outcomes;
  };
  /** The jobs of a notification written without its inline step, per workflow: every job, the first queued. */
  const helloJobs = [{ step_id: 'inbox', status: 'queued' }];
  const greetJobs = [
    { step_id: 'inbox', status: 'queued' },
    { step_id: 'after', status: 'pending' },
  ];
  /** The recipient's notification was written without its inline step: these jobs, the first in the queue, no message. */
  const expectLeftToJobs = async (transactionId: string, subscriberId: string, jobs: { step_id: string; status: string }[]) => {
    const n = await notification(transactionId, subscriberId);
    expect(n.inline).toBeNull();
    expect(await jobsOf(n.id)).toEqual(jobs);
    expect(await queuedIn(n.id)).toBe(1);
    expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [n.id])).toEqual([]);
  };
  /** Runs the workflow's inline step after another request commits `sql` (on its first run only). */
  const between = (workflow: DeliveryWorkflow, sql: string): RunInline => {
    let done = false;
    return async (recipients, source) => {
      if (!done) await database.db.pool.query(sql);
      done = true;
      return runInline(workflow)(recipients, source);
    };
  };

  /**
   * The real pool, recording the named statements that go through it (in a transaction too) and the
   * transactions (connections taken); `reads` and `accepts` count the inline recipients' reads and the
   * accept statements among them.
   */
  const recordingPool = () => {
    const { pool: real } = database.db;
    const recording = Object.create(real) as Pool & { names: string[]; transactions: number; readonly reads: number; readonly accepts: number };
    recording.names = [];
    recording.transactions = 0;
    Object.defineProperties(recording, {
      reads: { get: () => recording.names.filter((name) => name === 'herald-inline-recipients').length },
      accepts: { get: () => recording.names.filter(isAccept).length },
    });
    const record = (config: unknown) => {
      const name = (config as { name?: string })?.name;
      if (name) recording.names.push(name);
    };
    recording.query = ((config: unknown, ...rest: unknown[]) => {
      record(config);
      return (real.query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as Pool['query'];
    recording.connect = (async () => {
      recording.transactions++;
      const client = await real.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      const proxy = Object.create(client) as PoolClient;
      proxy.query = ((config: unknown, ...rest: unknown[]) => {
        record(config);
        return query(config, ...rest);
      }) as PoolClient['query'];
      return proxy;
    }) as Pool['connect'];
    return recording;
  };

  it('writes the step with the event for existing recipients: their message, no job row, the next step queued; a new subscriber gets every job', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const outcome = await batcher.accept(trigger(greet, 'inline-1', ['grace', 'newcomer']), runInline(greet));
    expect(outcome).toMatchObject({ accepted: true, notifications: 2 });
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status])).toEqual([['grace', 'completed']]);

    const grace = await notification('inline-1', 'grace');
    // Its one detail (the message stored in the inbox) is not stored: the activity log derives it.
    expect(grace.inline).toMatchObject({ stepId: 'inbox', type: 'in_app', position: 0, status: 'completed', providerId: 'herald', details: null });
    expect(await jobsOf(grace.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await queuedIn(grace.id)).toBe(1);
    const [message] = await rows<{ body: string; job_id: string; channel: string }>('SELECT body, job_id, channel FROM messages WHERE notification_id = $1', [grace.id]);
    expect(message).toEqual({ body: 'Hi Grace, order 7', job_id: grace.inline!.id, channel: 'in_app' });

    await expectLeftToJobs('inline-1', 'newcomer', greetJobs);
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
       WHERE n.transaction_id LIKE 'inline-only-%' AND m.job_id = n.inline_job_id AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id)`,
    );
    expect(written[0].n).toBe(6);

    expect(await batcher.accept(trigger(hello, 'inline-only-a', ['grace']), runInline(hello))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE transaction_id = 'inline-only-a'`))[0].n).toBe(2);
  });

  it('records a step skipped by the preferences, and runs a step on a recipient as the trigger\'s object leaves it', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const before = (await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'linus'`))[0].version;
    const outcome = await batcher.accept(
      trigger(greet, 'inline-2', ['quiet', 'linus'], [{ subscriberId: 'linus', firstName: 'Torvalds', data: { team: 'kernel' } }]),
      runInline(greet),
    );
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status]).sort()).toEqual([
      ['linus', 'completed'],
      ['quiet', 'skipped'],
    ]);
    const quiet = await notification('inline-2', 'quiet');
    expect(quiet.inline).toMatchObject({ status: 'skipped', details: [{ detail: 'skipped: preference in_app disabled by subscriber (global)' }] });
    expect(await jobsOf(quiet.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [quiet.id])).toEqual([]);
    // The step saw the subscriber as the upsert committed with the trigger left it.
    const linus = await notification('inline-2', 'linus');
    expect(linus.inline).toMatchObject({ status: 'completed' });
    expect(await jobsOf(linus.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [linus.id])).toEqual([{ body: 'Hi Torvalds, order 7' }]);
    const seen = outcome.accepted ? outcome.inline.find((o) => o.job.subscriber.subscriberId === 'linus')!.job.subscriber : undefined;
    const [stored] = await rows<{ first_name: string; data: unknown; version: number }>(`SELECT first_name, data, version FROM subscribers WHERE subscriber_id = 'linus'`);
    expect(stored).toEqual({ first_name: 'Torvalds', data: { team: 'kernel' }, version: before + 1 });
    expect(seen).toMatchObject({ firstName: 'Torvalds', lastName: null, data: { team: 'kernel' }, version: before + 1 });
  });

  it('answers accepted for inline triggers whose statement committed though its reply was lost', async () => {
    const hello = acceptance('x').workflow;
    let lost = false;
    const pool = Object.create(database.db.pool) as Pool;
    pool.query = (async (config: { name?: string; values?: unknown[] }, ...rest: unknown[]) => {
      const result = await (database.db.pool.query as (...args: unknown[]) => Promise<unknown>)(config, ...rest);
      if (isAccept(config?.name) && acceptedInBatch(config.values!) > 1 && !lost) {
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
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const failing: RunInline = async () => {
      throw new Error('engine blew up');
    };
    // Four triggers take every transaction slot, so the next three are accepted as one batch.
    const [renamer, reader, broken] = await inOneBatch(batcher, 'inline-3', () => [
        batcher.accept(trigger(greet, 'inline-3a', ['linus'], [{ subscriberId: 'linus', firstName: 'Renamed' }]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-3b', ['linus']), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-3c', ['grace']), failing),
    ]);
    expect([renamer, reader, broken].map((o) => o.accepted && o.inline.length)).toEqual([1, 1, 0]);
    // The trigger naming linus by id alone sees him as the other trigger's object leaves him too.
    for (const transactionId of ['inline-3a', 'inline-3b']) {
      const n = await notification(transactionId, 'linus');
      expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [n.id])).toEqual([{ body: 'Hi Renamed, order 7' }]);
    }
    const n = await notification('inline-3c', 'grace');
    expect(n.inline).toBeNull();
    expect((await jobsOf(n.id)).map((j) => j.status)).toEqual(['queued', 'pending']);
    expect(await queuedIn(n.id)).toBe(1);
  });

  it('accepts the first of two triggers repeating a transactionId in one batch, and writes its rows once', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const [first, second] = await inOneBatch(batcher, 'repeat', () => [
      batcher.accept({ ...trigger(greet, 'repeat-x', ['grace', 'repeat-new']), payload: { order: 1 } }, runInline(greet)),
      batcher.accept({ ...trigger(greet, 'repeat-x', ['grace', 'repeat-new']), payload: { order: 2 } }, runInline(greet)),
    ]);
    expect(first).toMatchObject({ accepted: true, notifications: 2 });
    expect(first.accepted && first.inline.map((o) => o.job.subscriber.subscriberId)).toEqual(['grace']);
    expect(second).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await rows(`SELECT payload FROM events WHERE transaction_id = 'repeat-x'`)).toEqual([{ payload: { order: 1 } }]);
    // Grace's first step ran with the trigger (a job for the second); the new subscriber got both jobs. Once.
    expect(await rows(`SELECT body FROM messages WHERE transaction_id = 'repeat-x'`)).toEqual([{ body: 'Hi Grace, order 1' }]);
    expect(await rows(`SELECT count(*)::int AS n FROM notifications WHERE transaction_id = 'repeat-x'`)).toEqual([{ n: 2 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = 'repeat-x'`)).toEqual([{ n: 3 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM subscribers WHERE subscriber_id = 'repeat-new'`)).toEqual([{ n: 1 }]);
  });

  it('accepts a batch again one by one when a step saw an object whose trigger was a duplicate', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'mary', 'Mary')`, [env]);
    expect(await batcher.accept(trigger(greet, 'inline-6a', ['grace']), runInline(greet))).toMatchObject({ accepted: true });
    const [duplicate, reader] = await inOneBatch(batcher, 'inline-6', () => [
        batcher.accept(trigger(greet, 'inline-6a', ['mary'], [{ subscriberId: 'mary', firstName: 'Ghost' }]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-6b', ['mary']), runInline(greet)),
    ]);
    expect(duplicate).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(reader.accepted && reader.inline.map((o) => o.status)).toEqual(['completed']);
    // The duplicate changed nothing, and the other trigger rendered what is stored.
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'mary'`)).toEqual([{ first_name: 'Mary' }]);
    const mary = await notification('inline-6b', 'mary');
    expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [mary.id])).toEqual([{ body: 'Hi Mary, order 7' }]);
    expect(await rows(`SELECT 1 FROM notifications WHERE transaction_id = 'inline-6a' AND subscriber_id = (SELECT id FROM subscribers WHERE subscriber_id = 'mary')`)).toEqual([]);
  });

  it('applies every object a batch gives for one subscriber, in order, and runs the step on the result', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    await database.db.pool.query(
      `INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name, phone, data) VALUES ($1, 'twice', 'Twice', 'Stored', '+100', '{"a": 1}')`,
      [env],
    );
    const outcomes = await inOneBatch(batcher, 'inline-5', () => [
        batcher.accept(trigger(greet, 'inline-5x', ['twice'], [{ subscriberId: 'twice', email: 'twice@example.com', firstName: 'First', data: null }]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-5y', ['twice'], [{ subscriberId: 'twice', firstName: 'Second', lastName: undefined, phone: null }]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-5z', ['twice'], [{ subscriberId: 'twice' }]), runInline(greet)),
    ]);
    // As if the triggers had come one after the other: the later one wins where both set a field, a
    // field left out stays, null clears.
    expect(await rows(`SELECT first_name, last_name, email, phone, data FROM subscribers WHERE subscriber_id = 'twice'`)).toEqual([
      { first_name: 'Second', last_name: 'Stored', email: 'twice@example.com', phone: null, data: null },
    ]);
    expect(outcomes.map((o) => o.accepted && o.inline.map((i) => i.status))).toEqual([['completed'], ['completed'], ['completed']]);
    for (const transactionId of ['inline-5x', 'inline-5y', 'inline-5z']) {
      const n = await notification(transactionId, 'twice');
      expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [n.id])).toEqual([{ body: 'Hi Second, order 7' }]);
    }
  });

  it('merges the channels of every object a batch gives for one subscriber, leaving those recipients to their jobs', async () => {
    const batcher = new TriggerBatcher(database.db.pool, queue);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'pushed')`, [env]);
    const phone = (token: string, lastName: string) => ({
      subscriberId: 'pushed',
      lastName,
      channels: [{ providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000001', credentials: { deviceTokens: [token] } }],
    });
    const outcomes = await inOneBatch(batcher, 'inline-7', () => [
        batcher.accept(trigger(greet, 'inline-7x', ['pushed'], [phone('token-1', 'One')]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-7y', ['pushed'], [phone('token-2', 'Two')]), runInline(greet)),
    ]);
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual([0, 0]);
    const [stored] = await rows<{ last_name: string; channels: { credentials: { deviceTokens: string[] } }[] }>(
      `SELECT last_name, channels FROM subscribers WHERE subscriber_id = 'pushed'`,
    );
    expect(stored.last_name).toBe('Two');
    expect(stored.channels.map((c) => c.credentials.deviceTokens)).toEqual([['token-1', 'token-2']]);
    for (const transactionId of ['inline-7x', 'inline-7y']) expect((await notification(transactionId, 'pushed')).inline).toBeNull();
  });

  it('keeps a batch together when only a duplicate\'s own step saw its object', async () => {
    const statements: number[] = [];
    const batcher = new TriggerBatcher(poolRecordingBatches(database.db.pool, statements), queue);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'resent', 'Resent')`, [env]);
    expect(await batcher.accept(trigger(greet, 'inline-8a', ['resent'], [{ subscriberId: 'resent', firstName: 'Once' }]), runInline(greet))).toMatchObject({ accepted: true });
    statements.length = 0;
    const [again, other] = await inOneBatch(batcher, 'inline-8', () => [
        batcher.accept(trigger(greet, 'inline-8a', ['resent'], [{ subscriberId: 'resent', firstName: 'Twice' }]), runInline(greet)),
        batcher.accept(trigger(greet, 'inline-8b', ['grace']), runInline(greet)),
    ]);
    expect(again).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(other.accepted && other.inline.map((o) => o.status)).toEqual(['completed']);
    // The two were accepted by one statement, not again one by one, and the duplicate changed nothing.
    expect(statements).toHaveLength(1);
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'resent'`)).toEqual([{ first_name: 'Once' }]);
  });

  it('runs the step again on a subscriber that changed while it ran, and leaves it to its job if it changes again', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'busy', 'Busy'), ($1, 'busier', 'Busier')`, [env]);
    const batcher = new TriggerBatcher(database.db.pool, queue);
    // Another request changes the subscriber after the step read it, before the trigger commits: on
    // the first `times` runs of the step.
    const racing = (subscriberId: string, times: number): RunInline => {
      let runs = 0;
      return async (recipients, accepted) => {
        if (runs++ < times) await database.db.pool.query(`UPDATE subscribers SET last_name = 'Elsewhere ' || $2, version = version + 1 WHERE subscriber_id = $1`, [subscriberId, runs]);
        return runInline(greet)(recipients, accepted);
      };
    };
    const once = await batcher.accept(trigger(greet, 'inline-9a', ['busy'], [{ subscriberId: 'busy', firstName: 'Renamed' }]), racing('busy', 1));
    // Run again on what is stored now: the other request's change and the trigger's object.
    expect(once.accepted && once.inline.map((o) => [o.status, o.job.subscriber.firstName, o.job.subscriber.lastName])).toEqual([['completed', 'Renamed', 'Elsewhere 1']]);
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'busy'`)).toEqual([{ first_name: 'Renamed', last_name: 'Elsewhere 1' }]);

    const twice = await batcher.accept(trigger(greet, 'inline-9b', ['busier'], [{ subscriberId: 'busier', firstName: 'Renamed' }]), racing('busier', 2));
    expect(twice).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    const busier = await notification('inline-9b', 'busier');
    expect(busier.inline).toBeNull();
    expect((await jobsOf(busier.id)).map((j) => j.status)).toEqual(['queued', 'pending']);
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'busier'`)).toEqual([{ first_name: 'Renamed', last_name: 'Elsewhere 2' }]);
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE transaction_id LIKE 'inline-9%'`))[0].n).toBe(2);
  });

  it("keeps the step's run when only the subscriber's presence changed while it ran", async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'present', 'Present')`, [env]);
    const batcher = new TriggerBatcher(database.db.pool, queue);
    let runs = 0;
    // An Inbox connects after the step read the subscriber, before the trigger commits (as setOnline writes it).
    const connecting: RunInline = async (recipients, accepted) => {
      if (runs++ === 0) await database.db.pool.query(`UPDATE subscribers SET is_online = true, last_online_at = now(), version = version + 1 WHERE subscriber_id = 'present'`);
      return runInline(greet)(recipients, accepted);
    };
    const outcome = await batcher.accept(trigger(greet, 'inline-10', ['present'], [{ subscriberId: 'present', firstName: 'Renamed' }]), connecting);
    expect(runs).toBe(1);
    expect(outcome.accepted && outcome.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Renamed']]);
    expect(await rows(`SELECT first_name, is_online FROM subscribers WHERE subscriber_id = 'present'`)).toEqual([{ first_name: 'Renamed', is_online: true }]);
  });

  it('writes a trigger whose recipient object changes nothing in one statement, as one naming its recipient by id', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'steady', 'Steady', 'steady@example.com')`, [env]);
    const recording = recordingPool();
    const { names } = recording;
    const batcher = new TriggerBatcher(recording, queue);
    const [{ version: before }] = await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'steady'`);

    const same = await batcher.accept(trigger(hello, 'inline-11a', ['steady'], [{ subscriberId: 'steady', firstName: 'Steady', email: 'steady@example.com' }]), runInline(hello));
    expect(same.accepted && same.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Steady']]);
    expect({ transactions: recording.transactions, names }).toEqual({ transactions: 0, names: ['herald-inline-recipients', 'herald-accept-triggers'] });
    expect(await rows(`SELECT version FROM subscribers WHERE subscriber_id = 'steady'`)).toEqual([{ version: before }]);

    // An object that changes the subscriber is still applied with the trigger, in its transaction.
    const renamed = await batcher.accept(trigger(hello, 'inline-11b', ['steady'], [{ subscriberId: 'steady', firstName: 'Renamed' }]), runInline(hello));
    expect(renamed.accepted && renamed.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Renamed']]);
    expect(recording.transactions).toBe(1);
    expect(await rows(`SELECT first_name, version FROM subscribers WHERE subscriber_id = 'steady'`)).toEqual([{ first_name: 'Renamed', version: before + 1 }]);
    expect((await rows<{ body: string }>(`SELECT body FROM messages WHERE transaction_id = 'inline-11b'`)).length).toBe(1);
  });

  it("applies an accepted trigger's object that a refused duplicate's object in the same batch would undo", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'revert', 'Old')`, [env]);
    const batcher = new TriggerBatcher(database.db.pool, queue);
    expect((await batcher.accept(trigger(hello, 'revert-dup', ['revert'], [{ subscriberId: 'revert', firstName: 'Old' }]), runInline(hello))).accepted).toBe(true);
    // Together: the new trigger renames the subscriber; the repeated one (refused: its transactionId is
    // stored) would set the old name back. Folded, the two leave the subscriber as stored.
    const [renamed, repeated] = await inOneBatch(batcher, 'revert', () => [
      batcher.accept(trigger(hello, 'revert-new', ['revert'], [{ subscriberId: 'revert', firstName: 'New' }]), runInline(hello)),
      batcher.accept(trigger(hello, 'revert-dup', ['revert'], [{ subscriberId: 'revert', firstName: 'Old' }]), runInline(hello)),
    ]);
    expect(renamed.accepted).toBe(true);
    expect(repeated).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'revert'`)).toEqual([{ first_name: 'New' }]);
  });

  it('creates a recipient deleted while its step ran as its object makes it, though the object changed nothing when read', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'gone', 'Gone', 'gone@example.com')`, [env]);
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const deleting: RunInline = async (recipients, accepted) => {
      await database.db.pool.query(`DELETE FROM subscribers WHERE subscriber_id = 'gone'`);
      return runInline(hello)(recipients, accepted);
    };
    const outcome = await batcher.accept(trigger(hello, 'gone-1', ['gone'], [{ subscriberId: 'gone', firstName: 'Gone', email: 'gone@example.com' }]), deleting);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1 });
    expect(await rows(`SELECT first_name, email FROM subscribers WHERE subscriber_id = 'gone'`)).toEqual([{ first_name: 'Gone', email: 'gone@example.com' }]);
    // Created again after its step ran: its notification has every job instead.
    const gone = await notification('gone-1', 'gone');
    expect(gone.inline).toBeNull();
    expect((await jobsOf(gone.id)).map((j) => j.status)).toEqual(['queued']);
  });

  it('runs inline for a recipient named by an object that sets nothing but its subscriberId', async () => {
    const hello = acceptance('x').workflow;
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const outcome = await batcher.accept(trigger(hello, 'inline-4', ['grace'], [{ subscriberId: 'grace' }]), runInline(hello));
    expect(outcome.accepted && outcome.inline.map((o) => o.job.subscriber.subscriberId)).toEqual(['grace']);
    const grace = await notification('inline-4', 'grace');
    expect(grace.inline).toMatchObject({ status: 'completed' });
    expect(await jobsOf(grace.id)).toEqual([]);
  });

  const bodyOf = async (transactionId: string, subscriberId: string) =>
    (await rows<{ body: string }>('SELECT body FROM messages WHERE notification_id = $1', [(await notification(transactionId, subscriberId)).id]))[0]?.body;

  it('runs the step on a remembered recipient without reading it again, and leaves it to its jobs once any write changed the row', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'kept', 'Kept')`, [env]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    const accept = async (transactionId: string) => {
      const outcome = await batcher.accept(trigger(greet, transactionId, ['kept']), runInline(greet));
      return outcome.accepted ? outcome.inline.map((o) => [o.status, o.job.subscriber.firstName]) : outcome;
    };
    expect(await accept('remembered-1')).toEqual([['completed', 'Kept']]);
    expect(await accept('remembered-2')).toEqual([['completed', 'Kept']]);
    expect(pool.reads).toBe(1);
    expect(await bodyOf('remembered-2', 'kept')).toBe('Hi Kept, order 7');

    // A write that leaves the version as it was (none of Herald's do) still makes the row another.
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Changed' WHERE subscriber_id = 'kept'`);
    expect(await accept('remembered-3')).toEqual([]);
    await expectLeftToJobs('remembered-3', 'kept', greetJobs);
    expect(pool.reads).toBe(1);

    // Forgotten when its run was refused: read again, and run on the row as it is now.
    expect(await accept('remembered-4')).toEqual([['completed', 'Changed']]);
    expect(pool.reads).toBe(2);
    expect(await bodyOf('remembered-4', 'kept')).toBe('Hi Changed, order 7');
  });

  it("leaves a remembered recipient to its job once its preferences changed, and reads them again for the next trigger", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'choosy', 'Choosy')`, [env]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    const accept = async (transactionId: string) => {
      const outcome = await batcher.accept(trigger(hello, transactionId, ['choosy']), runInline(hello));
      return outcome.accepted ? outcome.inline.map((o) => o.status) : outcome;
    };
    expect(await accept('choosy-1')).toEqual(['completed']);
    await database.db.pool.query(
      `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
       SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'choosy'`,
    );
    // Its step is queued, though the workflow has no other: the job applies the preferences as they are.
    expect(await accept('choosy-2')).toEqual([]);
    await expectLeftToJobs('choosy-2', 'choosy', helloJobs);
    expect(pool.reads).toBe(1);

    expect(await accept('choosy-3')).toEqual(['skipped']);
    expect(pool.reads).toBe(2);
    expect((await notification('choosy-3', 'choosy')).inline).toMatchObject({ details: [{ detail: 'skipped: preference in_app disabled by subscriber (global)' }] });
    // The workflow's own row changes what the step reads too.
    await database.db.pool.query(
      `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
       SELECT s.environment_id, s.id, $1, true, '{"in_app": true}' FROM subscribers s WHERE s.subscriber_id = 'choosy'`,
      [hello.id],
    );
    expect(await accept('choosy-4')).toEqual([]);
    expect(await accept('choosy-5')).toEqual(['completed']);
    expect(pool.reads).toBe(3);
  });

  it('leaves a recipient to its job when its row or its preferences change between the read and the write', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'racer', 'Racer'), ($1, 'racer2', 'Racer')`, [env]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    // Another request commits after the step read its recipient, before the trigger's write.
    const racing = await batcher.accept(trigger(hello, 'race-1', ['racer']), between(hello, `UPDATE subscribers SET last_name = 'Late' WHERE subscriber_id = 'racer'`));
    expect(racing).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    await expectLeftToJobs('race-1', 'racer', helloJobs);
    // Not remembered as the read saw it: read again.
    const next = await batcher.accept(trigger(hello, 'race-2', ['racer']), runInline(hello));
    expect(next.accepted && next.inline.map((o) => [o.status, o.job.subscriber.lastName])).toEqual([['completed', 'Late']]);
    expect(pool.reads).toBe(2);

    // Seen as its object leaves it, the row is compared after the upsert (presence aside); its preferences here.
    const preferred = await batcher.accept(
      trigger(greet, 'race-3', ['racer2'], [{ subscriberId: 'racer2', firstName: 'Object' }]),
      between(
        greet,
        `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
         SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'racer2'`,
      ),
    );
    expect(preferred).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    await expectLeftToJobs('race-3', 'racer2', greetJobs);
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'racer2'`)).toEqual([{ first_name: 'Object' }]);
  });

  it('runs the step on a recipient remembered with the object its triggers give, and applies the object if the row changed since', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'named', 'Named'), ($1, 'named2', 'Named')`, [env]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    const object = { subscriberId: 'named', firstName: 'Named', email: 'named@example.com' };
    const accept = async (workflow: DeliveryWorkflow, transactionId: string, subscriber = object) => {
      const outcome = await batcher.accept(trigger(workflow, transactionId, [subscriber.subscriberId], [subscriber]), runInline(workflow));
      return outcome.accepted ? outcome.inline.map((o) => [o.status, o.job.subscriber.email]) : outcome;
    };
    const stored = (subscriberId = 'named') => rows<{ first_name: string; email: string }>('SELECT first_name, email FROM subscribers WHERE subscriber_id = $1', [subscriberId]);
    // The first applies the object (its email); the next is the first to find it as stored, and is remembered.
    expect(await accept(hello, 'named-1')).toEqual([['completed', 'named@example.com']]);
    expect(await accept(hello, 'named-2')).toEqual([['completed', 'named@example.com']]);
    expect(await accept(hello, 'named-3')).toEqual([['completed', 'named@example.com']]);
    expect(pool.reads).toBe(2);

    // Another request changes the row: the same object must still be applied, as if its trigger came after.
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Renamed', email = NULL WHERE subscriber_id = 'named'`);
    const version = (await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'named'`))[0].version;
    expect(await accept(hello, 'named-4')).toEqual([]);
    expect(await stored()).toEqual([{ first_name: 'Named', email: 'named@example.com' }]);
    expect((await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'named'`))[0].version).toBe(version + 1);
    await expectLeftToJobs('named-4', 'named', helloJobs);
    expect(pool.reads).toBe(2);
    expect(await accept(hello, 'named-5')).toEqual([['completed', 'named@example.com']]);
    expect(pool.reads).toBe(3);

    // A refused duplicate's object is not applied; in a transaction (a step after the inline one), an accepted one's is.
    await accept(greet, 'named2-1', { ...object, subscriberId: 'named2' });
    expect(await accept(greet, 'named2-2', { ...object, subscriberId: 'named2' })).toEqual([['completed', 'named@example.com']]);
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Renamed' WHERE subscriber_id = 'named2'`);
    expect(await accept(greet, 'named2-1', { ...object, subscriberId: 'named2' })).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await stored('named2')).toEqual([{ first_name: 'Renamed', email: 'named@example.com' }]);
    expect(await accept(greet, 'named2-3', { ...object, subscriberId: 'named2' })).toEqual([]);
    expect(await stored('named2')).toEqual([{ first_name: 'Named', email: 'named@example.com' }]);
    await expectLeftToJobs('named2-3', 'named2', greetJobs);
  });

  it('reads a recipient given an object for every trigger of a batch when one of them has no remembered read, and renders what is stored', async () => {
    const hello = acceptance('x').workflow;
    const { pool: direct } = database.db;
    await direct.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'welcome', 'welcome') RETURNING id)
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
       SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"Hi {{subscriber.firstName}} {{subscriber.lastName}}"}'::jsonb FROM w`,
      [env],
    );
    const welcome = (await new SqlEventRepository(direct, queue).findWorkflow(env, 'welcome'))!;
    await direct.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name) VALUES ($1, 'mixer', 'Mix', 'Smith')`, [env]);
    const batcher = new TriggerBatcher(recordingPool(), queue);
    const object = { subscriberId: 'mixer', firstName: 'Mix', email: 'mix@example.com' };
    for (const t of ['mix-1', 'mix-2']) await batcher.accept(trigger(hello, t, ['mixer'], [object]), runInline(hello));
    await direct.query(`UPDATE subscribers SET first_name = 'Renamed' WHERE subscriber_id = 'mixer'`);
    // Remembered for one workflow, not the other; another request writes the row while the other's step runs.
    const racing = between(welcome, `UPDATE subscribers SET first_name = 'Other', last_name = 'Jones' WHERE subscriber_id = 'mixer'`);
    const [remembered, read] = await inOneBatch(batcher, 'mix-batch', () => [
      batcher.accept(trigger(hello, 'mix-3', ['mixer'], [object]), runInline(hello)),
      batcher.accept(trigger(welcome, 'mix-4', ['mixer'], [object]), racing),
    ]);
    expect(remembered.accepted && read.accepted).toBe(true);
    // As if the other request came first: the object applied on its write, and the step saw that.
    expect(await rows(`SELECT first_name, last_name, email FROM subscribers WHERE subscriber_id = 'mixer'`)).toEqual([{ first_name: 'Mix', last_name: 'Jones', email: 'mix@example.com' }]);
    expect(await bodyOf('mix-4', 'mixer')).toBe('Hi Mix Jones');
  });

  it('applies an object that left its recipient as stored when read, if another write changed the row before the statement', async () => {
    const hello = acceptance('x').workflow;
    const { pool: direct } = database.db;
    await direct.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name) VALUES ($1, 'raced', 'Mix', 'Smith')`, [env]);
    const batcher = new TriggerBatcher(direct, queue);
    const writing = between(hello, `UPDATE subscribers SET first_name = 'Other', last_name = 'Jones' WHERE subscriber_id = 'raced'`);
    // Read just now, nothing remembered: the object leaves the row as stored, so no upsert follows.
    const outcome = await batcher.accept(trigger(hello, 'raced-1', ['raced'], [{ subscriberId: 'raced', firstName: 'Mix' }]), writing);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'raced'`)).toEqual([{ first_name: 'Mix', last_name: 'Jones' }]);
    await expectLeftToJobs('raced-1', 'raced', helloJobs);
  });

  it("creates a remembered recipient deleted since with the object of an accepted trigger only", async () => {
    const hello = acceptance('x').workflow;
    const object = (subscriberId: string) => ({ subscriberId, firstName: 'Given', lastName: 'Object' });
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'vanished'), ($1, 'vanished2')`, [env]);
    const batcher = new TriggerBatcher(recordingPool(), queue);
    for (const id of ['vanished', 'vanished2']) for (const t of ['a', 'b']) await batcher.accept(trigger(hello, `${id}-${t}`, [id], [object(id)]), runInline(hello));
    await database.db.pool.query(`DELETE FROM subscribers WHERE subscriber_id IN ('vanished', 'vanished2')`);
    const stored = (id: string) => rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = $1`, [id]);
    // A refused duplicate names it with its object; an accepted trigger gives the same object (as an actor does) and names another.
    const [duplicate, giver] = await inOneBatch(batcher, 'vanished-batch', () => [
      batcher.accept(trigger(hello, 'vanished-a', ['vanished'], [object('vanished')]), runInline(hello)),
      batcher.accept({ ...trigger(hello, 'vanished-c', ['grace']), upserts: [object('vanished')] }, runInline(hello)),
    ]);
    expect([duplicate.accepted, giver.accepted]).toEqual([false, true]);
    expect(await stored('vanished')).toEqual([{ first_name: 'Given', last_name: 'Object' }]);
    // A refused duplicate gives the object; an accepted trigger names the recipient by id: created without it.
    const [duplicate2, named] = await inOneBatch(batcher, 'vanished2-batch', () => [
      batcher.accept(trigger(hello, 'vanished2-a', ['vanished2'], [object('vanished2')]), runInline(hello)),
      batcher.accept(trigger(hello, 'vanished2-c', ['vanished2']), runInline(hello)),
    ]);
    expect([duplicate2.accepted, named.accepted]).toEqual([false, true]);
    expect(await stored('vanished2')).toEqual([{ first_name: null, last_name: null }]);
  });

  /**
   * The workflow's inline step, run after another request deletes subscriber `subscriberId` and a third
   * creates it again (first name Other), committing only once the accept statement waits for it.
   */
  const recreatedMeanwhile = (workflow: DeliveryWorkflow, subscriberId: string) => {
    let committed: Promise<unknown> = Promise.resolve();
    const run: RunInline = async (recipients, source) => {
      const { pool } = database.db;
      await pool.query(`DELETE FROM subscribers WHERE subscriber_id = $1`, [subscriberId]);
      const other = await pool.connect();
      await other.query('BEGIN');
      await other.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, $2, 'Other')`, [env, subscriberId]);
      committed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => other.query('COMMIT')).finally(() => other.release());
      return runInline(workflow)(recipients, source);
    };
    return { run, committed: () => committed };
  };

  it("applies an accepted trigger's object to a recipient deleted and created again by others while the statement ran, and only that", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(
      `INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'reborn', 'Given', 'given@example.com'), ($1, 'reborn2', 'Named', NULL)`,
      [env],
    );
    const batcher = new TriggerBatcher(database.db.pool, queue);
    const stored = (id: string) => rows(`SELECT first_name, email, version FROM subscribers WHERE subscriber_id = $1`, [id]);
    // Given an object that leaves the row as stored when read (so no upsert follows). The trigger came
    // after the other request's create (version 0): its object applies on top of it.
    const object = { subscriberId: 'reborn', firstName: 'Given', email: 'given@example.com' };
    const racing = recreatedMeanwhile(hello, 'reborn');
    const outcome = await batcher.accept(trigger(hello, 'reborn-1', ['reborn'], [object]), racing.run);
    await racing.committed();
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await stored('reborn')).toEqual([{ first_name: 'Given', email: 'given@example.com', version: 1 }]);
    await expectLeftToJobs('reborn-1', 'reborn', helloJobs);
    // Given an object setting channels: merged into the other request's row.
    const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000003', credentials: { deviceTokens: ['token-3'] } };
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, channels) VALUES ($1, 'reborn3', 'Given', $2)`, [env, JSON.stringify([phone])]);
    const withChannels = recreatedMeanwhile(hello, 'reborn3');
    const pushed = await batcher.accept(trigger(hello, 'reborn3-1', ['reborn3'], [{ subscriberId: 'reborn3', firstName: 'Given', channels: [phone] }]), withChannels.run);
    await withChannels.committed();
    expect(pushed).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await rows(`SELECT first_name, channels, version FROM subscribers WHERE subscriber_id = 'reborn3'`)).toEqual([{ first_name: 'Given', channels: [phone], version: 1 }]);
    // Named by id: the other request's row stays as it made it.
    const byId = recreatedMeanwhile(hello, 'reborn2');
    const named = await batcher.accept(trigger(hello, 'reborn2-1', ['reborn2']), byId.run);
    await byId.committed();
    expect(named).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await stored('reborn2')).toEqual([{ first_name: 'Other', email: null, version: 0 }]);
    await expectLeftToJobs('reborn2-1', 'reborn2', helloJobs);
  });

  it('applies an object setting channels that left its recipient as stored to a row changed meanwhile, merging them, in one statement', async () => {
    const hello = acceptance('x').workflow;
    const { pool } = database.db;
    const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000002', credentials: { deviceTokens: ['token-1'] } };
    await pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, channels) VALUES ($1, 'handset', 'Hand', $2)`, [env, JSON.stringify([phone])]);
    const recording = recordingPool();
    const batcher = new TriggerBatcher(recording, queue);
    // Another request drops the device and renames the subscriber after the step read it; the trigger's
    // object, which left the row as stored when read, comes after it: its device is there again.
    const writing = between(hello, `UPDATE subscribers SET channels = '[]', last_name = 'Since' WHERE subscriber_id = 'handset'`);
    const outcome = await batcher.accept(trigger(hello, 'handset-1', ['handset'], [{ subscriberId: 'handset', firstName: 'Hand', channels: [phone] }]), writing);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect({ transactions: recording.transactions, names: recording.names }).toEqual({ transactions: 0, names: ['herald-inline-recipients', 'herald-accept-triggers-channels'] });
    expect(await rows(`SELECT first_name, last_name, channels FROM subscribers WHERE subscriber_id = 'handset'`)).toEqual([{ first_name: 'Hand', last_name: 'Since', channels: [phone] }]);
    await expectLeftToJobs('handset-1', 'handset', helloJobs);
    // Given again and again, the object is remembered with the row it leaves as stored: no read, no upsert.
    recording.names.length = 0;
    for (const t of ['handset-2', 'handset-3', 'handset-4']) {
      const again = await batcher.accept(trigger(hello, t, ['handset'], [{ subscriberId: 'handset', firstName: 'Hand', channels: [phone] }]), runInline(hello));
      expect(again.accepted && again.inline.map((o) => o.status)).toEqual(['completed']);
    }
    expect({ transactions: recording.transactions, reads: recording.reads }).toEqual({ transactions: 0, reads: 1 });
  });

  it('keeps the batch together when a remembered run it refused was on a row changed since', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'steadfast', 'Steadfast')`, [env]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    const object = { subscriberId: 'steadfast', firstName: 'Steadfast' };
    for (const t of ['steadfast-1', 'steadfast-2']) await batcher.accept(trigger(greet, t, ['steadfast'], [object]), runInline(greet));
    // Changed where the object sets nothing: its run is refused, and nothing is applied.
    await database.db.pool.query(`UPDATE subscribers SET last_name = 'Since' WHERE subscriber_id = 'steadfast'`);
    const accepts = pool.accepts;
    const outcome = await batcher.accept(trigger(greet, 'steadfast-3', ['steadfast'], [object]), runInline(greet));
    expect(outcome).toMatchObject({ accepted: true, inline: [] });
    expect(pool.accepts - accepts).toBe(1);
    expect((await jobsOf((await notification('steadfast-3', 'steadfast')).id)).map((j) => j.status)).toEqual(['queued', 'pending']);
  });

  it('has PostgreSQL plan the accept statement once per connection: after its first runs, one generic plan is reused', async () => {
    // A prepared statement is planned for its parameters' values five times, then kept generic only if
    // that plan looks no dearer than those: otherwise every batch pays for planning the statement
    // (3-4 ms, more than running it). A change of its text can tip that choice without failing anything else.
    const hello = acceptance('x').workflow;
    const single = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const batcher = new TriggerBatcher(single, queue);
      for (let i = 0; i < 8; i++) await batcher.accept(trigger(hello, `planned-${i}`, ['grace']), runInline(hello));
      // And its form with the channels merge, for recipients given the same object with their device each time.
      const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000004', credentials: { deviceTokens: ['token-4'] } };
      await single.query(`INSERT INTO subscribers (environment_id, subscriber_id, channels) VALUES ($1, 'planned', $2)`, [env, JSON.stringify([phone])]);
      for (let i = 0; i < 8; i++) await batcher.accept(trigger(hello, `planned-channels-${i}`, ['planned'], [{ subscriberId: 'planned', channels: [phone] }]), runInline(hello));
      const { rows: plans } = await single.query(`SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'herald-accept-triggers%' ORDER BY name`);
      expect(plans).toEqual([
        { name: 'herald-accept-triggers', generic_plans: 3, custom_plans: 5 },
        { name: 'herald-accept-triggers-channels', generic_plans: 3, custom_plans: 5 },
      ]);
    } finally {
      await single.end();
    }
  });

  it('does not remember a recipient whose row is large', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, data) VALUES ($1, 'large', $2)`, [env, { notes: 'x'.repeat(20_000) }]);
    const pool = recordingPool();
    const batcher = new TriggerBatcher(pool, queue);
    for (const t of ['large-1', 'large-2']) {
      const outcome = await batcher.accept(trigger(hello, t, ['large']), runInline(hello));
      expect(outcome.accepted && outcome.inline.map((o) => o.status)).toEqual(['completed']);
    }
    expect(pool.reads).toBe(2);
  });
});
