import { InAppStepHandler, inlineRunner, RunNotifications, type AcceptOutcome, type DeliveryWorkflow, type JobRepository, type RunInline, type StepHandlers, type TriggerAcceptance } from '@herald/domain';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { PrismaTenancyRepository } from '../persistence/prisma-tenancy-repository';
import { SqlEventRepository } from '../persistence/sql-event-repository';
import type { TriggerAcceptor } from '../persistence/trigger-acceptance/trigger-acceptor';
import { PgBossDeliveryQueue, STEPS_QUEUE } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { recordingPool } from './recording-pools';
import { useTestDatabase } from './use-test-database';
import { testChannelCipher } from './test-channel-cipher';

/** The jobs of a notification written without its inline step, per workflow: every job, the first queued. */
export const helloJobs = [{ step_id: 'inbox', status: 'queued' }];
export const greetJobs = [
  { step_id: 'inbox', status: 'queued' },
  { step_id: 'after', status: 'pending' },
];

/**
 * For the trigger acceptor's int tests: a database of its own with the queue, an environment, two
 * workflows whose first step is in-app (`hello`: that one only; `greet`: then a custom step) and the
 * subscribers grace, linus and quiet (in-app disabled), with helpers to trigger them and read what
 * was written.
 */
export function useTriggerAcceptanceFixture() {
  const database = useTestDatabase();
  let boss: PgBoss | undefined;
  let queue!: PgBossDeliveryQueue;
  let env!: string;
  let hello!: DeliveryWorkflow;
  let greet!: DeliveryWorkflow;

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
    hello = (await new SqlEventRepository(pool, queue, testChannelCipher).findWorkflow(env, 'hello'))!;
    await pool.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'greet', 'greet') RETURNING id)
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
       SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"Hi {{subscriber.firstName}}, order {{payload.order}}"}'::jsonb FROM w
       UNION ALL SELECT id, 'after', 'after', 'custom', 1, '{}'::jsonb FROM w`,
      [env],
    );
    greet = (await new SqlEventRepository(pool, queue, testChannelCipher).findWorkflow(env, 'greet'))!;
    await pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'grace', 'Grace'), ($1, 'linus', 'Linus'), ($1, 'quiet', 'Quiet')`, [env]);
    await pool.query(
      `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
       SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'quiet'`,
    );
  });
  afterAll(async () => {
    if (boss) await stopPgBoss(boss, 1_000);
  });

  /** A trigger of `hello` for ada (who does not exist), with nothing else. */
  const acceptance = (transactionId: string): TriggerAcceptance => ({
    environmentId: env,
    workflow: hello,
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
  const bodyOf = async (transactionId: string, subscriberId: string) =>
    (await rows<{ body: string }>('SELECT body FROM messages WHERE notification_id = $1', [(await notification(transactionId, subscriberId)).id]))[0]?.body;

  return {
    database,
    get queue() {
      return queue;
    },
    get env() {
      return env;
    },
    get hello() {
      return hello;
    },
    get greet() {
      return greet;
    },
    acceptance,
    runInline,
    trigger,
    rows,
    notification,
    jobsOf,
    queuedIn,
    bodyOf,
    recordingPool: () => recordingPool(database.db.pool),
    /** Accepts `triggers` together: four other triggers take every transaction slot first, so these wait and are written as one batch. */
    async inOneBatch(acceptor: TriggerAcceptor, tag: string, triggers: () => Promise<AcceptOutcome>[]) {
      const fillers = ['a', 'b', 'c', 'd'].map((t) => acceptor.accept(trigger(hello, `${tag}-${t}`, ['grace']), runInline(hello)));
      const outcomes = await Promise.all(triggers());
      await Promise.all(fillers);
      return outcomes;
    },
    /** The recipient's notification was written without its inline step: these jobs, the first in the queue, no message. */
    async expectLeftToJobs(transactionId: string, subscriberId: string, jobs: { step_id: string; status: string }[]) {
      const n = await notification(transactionId, subscriberId);
      expect(n.inline).toBeNull();
      expect(await jobsOf(n.id)).toEqual(jobs);
      expect(await queuedIn(n.id)).toBe(1);
      expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [n.id])).toEqual([]);
    },
    /** Runs the workflow's inline step after another request commits `sql` (on its first run only). */
    between(workflow: DeliveryWorkflow, sql: string): RunInline {
      let done = false;
      return async (recipients, source) => {
        if (!done) await database.db.pool.query(sql);
        done = true;
        return runInline(workflow)(recipients, source);
      };
    },
  };
}
