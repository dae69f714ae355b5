import { CustomStepHandler, InAppStepHandler, RunNotifications, wholeRange, type StepHandlers } from '@herald/domain';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { PrismaTenancyRepository } from '../persistence/prisma-tenancy-repository';
import { SqlEventRepository } from '../persistence/sql-event-repository';
import { SqlJobRepository } from '../persistence/sql-job-repository';
import { useTestDatabase } from './use-test-database';
import { testChannelCipher } from './test-channel-cipher';

export interface FanoutFixture {
  readonly database: ReturnType<typeof useTestDatabase>;
  events: SqlEventRepository;
  queue: PgBossDeliveryQueue;
  steps: RunNotifications;
  /** The Development environment holding workflow 'news' (one in-app step) and topic 'everyone'. */
  env: string;
  /** A new event of `workflowId` in state fanning_out to topic 'everyone', minus `exclude`. */
  fanningOutEvent(transactionId: string, exclude?: string[], cursor?: Record<string, unknown>, workflowId?: string): Promise<string>;
  /** The event's status and lanes, and how many notifications (and distinct recipients) it has. */
  outcome(eventId: string): Promise<{ status: string; lanes: Array<{ done: boolean }>; notifications: number; distinct: number }>;
}

/**
 * The event repository over a real database and pg-boss, with `subscribers` subscribers all on topic
 * 'everyone': the fan-out tests share it, so each file seeds once.
 */
export function useFanoutFixture(subscribers: number): FanoutFixture {
  const database = useTestDatabase();
  let boss: PgBoss | undefined;
  const fixture = {
    database,
    async fanningOutEvent(transactionId, exclude = [], cursor = { lanes: wholeRange() }, workflowId = 'news') {
      const { rows } = await database.db.pool.query<{ id: string }>(
        `INSERT INTO events (environment_id, workflow_id, transaction_id, "to", status, fanout_cursor)
         SELECT $1, id, $2, '{}', 'fanning_out', $3 FROM workflows WHERE workflow_id = $4 RETURNING id`,
        [fixture.env, transactionId, JSON.stringify({ topics: [{ topicKey: 'everyone', exclude }], ...cursor }), workflowId],
      );
      return rows[0].id;
    },
    async outcome(eventId) {
      const { rows } = await database.db.pool.query(
        `SELECT e.status, e.fanout_cursor->'lanes' AS lanes,
                (SELECT count(*)::int FROM notifications n WHERE n.event_id = e.id) AS notifications,
                (SELECT count(DISTINCT subscriber_id)::int FROM notifications n WHERE n.event_id = e.id) AS distinct
         FROM events e WHERE e.id = $1`,
        [eventId],
      );
      return rows[0];
    },
  } as FanoutFixture;

  beforeAll(async () => {
    const { pool, prisma } = database.db;
    boss = await startPgBoss(database.url, pino({ level: 'silent' }));
    fixture.queue = new PgBossDeliveryQueue(boss);
    await fixture.queue.ensureQueues();
    fixture.events = new SqlEventRepository(pool, fixture.queue, testChannelCipher);
    // Only the step types these workflows have.
    const handlers = { in_app: new InAppStepHandler('herald'), custom: new CustomStepHandler() } as Partial<StepHandlers> as StepHandlers;
    fixture.steps = new RunNotifications(new SqlJobRepository(pool, fixture.queue, testChannelCipher), handlers);
    const { environments } = await new PrismaTenancyRepository(prisma).bootstrap({
      organizationName: 'Org',
      environments: [{ name: 'Development', slug: 'development', signingSecret: 's1' }],
    });
    fixture.env = environments[0].id;
    await pool.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'news', 'news') RETURNING id),
       st AS (INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values) SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"hi"}' FROM w),
       subs AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT $1, 'u' || g FROM generate_series(1, $2) g RETURNING id, subscriber_id),
       topic AS (INSERT INTO topics (environment_id, key) VALUES ($1, 'everyone') RETURNING id)
       INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier) SELECT $1, topic.id, subs.id, subs.subscriber_id FROM topic, subs`,
      [fixture.env, subscribers],
    );
  });
  afterAll(async () => {
    if (boss) await stopPgBoss(boss, 1_000);
  });
  return fixture;
}
