import { FanOutEvent, wholeRange } from '@herald/domain';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlEventRepository } from './sql-event-repository';

const SUBSCRIBERS = 2_500;
const database = useTestDatabase();
let boss: PgBoss;
let events: SqlEventRepository;
let env: string;

beforeAll(async () => {
  const { pool, prisma } = database.db;
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  const queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  events = new SqlEventRepository(pool, queue);
  const { environments } = await new PrismaTenancyRepository(prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's1' }],
  });
  env = environments[0].id;
  await pool.query(
    `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'news', 'news') RETURNING id),
     st AS (INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values) SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"hi"}' FROM w),
     subs AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT $1, 'u' || g FROM generate_series(1, $2) g RETURNING id, subscriber_id),
     topic AS (INSERT INTO topics (environment_id, key) VALUES ($1, 'everyone') RETURNING id)
     INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier) SELECT $1, topic.id, subs.id, subs.subscriber_id FROM topic, subs`,
    [env, SUBSCRIBERS],
  );
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

async function fanningOutEvent(transactionId: string, exclude: string[] = [], cursor: Record<string, unknown> = { lanes: wholeRange() }): Promise<string> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `INSERT INTO events (environment_id, workflow_id, transaction_id, "to", status, fanout_cursor)
     SELECT $1, id, $2, '{}', 'fanning_out', $3 FROM workflows WHERE workflow_id = 'news' RETURNING id`,
    [env, transactionId, JSON.stringify({ topics: [{ topicKey: 'everyone', exclude }], ...cursor })],
  );
  return rows[0].id;
}

async function outcome(eventId: string) {
  const { rows } = await database.db.pool.query<{ status: string; lanes: Array<{ done: boolean }>; notifications: number; distinct: number }>(
    `SELECT e.status, e.fanout_cursor->'lanes' AS lanes,
            (SELECT count(*)::int FROM notifications n WHERE n.event_id = e.id) AS notifications,
            (SELECT count(DISTINCT subscriber_id)::int FROM notifications n WHERE n.event_id = e.id) AS distinct
     FROM events e WHERE e.id = $1`,
    [eventId],
  );
  return rows[0];
}

describe('topic fan-out in lanes', () => {
  it('splits a large topic into lanes that together reach every subscriber once, minus the excluded', async () => {
    const eventId = await fanningOutEvent('lanes-1', ['u7', 'u2000']);
    const result = await new FanOutEvent(events, 400, 3).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 2);
    const after = await outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS - 2, distinct: SUBSCRIBERS - 2 });
    expect(after.lanes).toHaveLength(3);
    expect(after.lanes.every((l) => l.done)).toBe(true);
  });

  it('keeps one notification per subscriber when two runs of one fan-out race; a run overtaken commits nothing and is retried', async () => {
    const eventId = await fanningOutEvent('lanes-2');
    const run = async () => {
      // A run whose stored progress moved under it fails; the queue retries it from the stored progress.
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          return await new FanOutEvent(events, 300, 3).execute(eventId);
        } catch (error) {
          expect((error as Error).message).toMatch(/moved on by another run/);
        }
      }
      throw new Error('fan-out never finished');
    };
    await Promise.all([run(), run(), run()]);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('leaves a small topic as one lane', async () => {
    const eventId = await fanningOutEvent('lanes-3');
    await new FanOutEvent(events, 5_000, 3).execute(eventId);
    const after = await outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(1);
  });

  it('refuses the chunk of a run that another run has overtaken, committing nothing', async () => {
    const eventId = await fanningOutEvent('lanes-4');
    const first = (await events.loadFanout(eventId))!;
    const overtaken = (await events.loadFanout(eventId))!;
    const [lane] = first.lanes;
    const chunk = await events.fanoutCandidates(first, lane, 10);
    const moved = { ...lane, after: chunk[9].subscriberId };
    expect(await events.commitFanoutChunk(first, chunk, { from: lane, index: 0, lane: moved })).toBe(10);
    // The other run read the same chunk from the same start: its progress would move the lane back.
    await expect(events.commitFanoutChunk(overtaken, chunk, { from: lane, index: 0, lane: moved })).rejects.toThrow(/moved on by another run/);
    const stored = await database.db.pool.query('SELECT fanout_cursor FROM events WHERE id = $1', [eventId]);
    expect(stored.rows[0].fanout_cursor.lanes).toEqual([moved]);
    await new FanOutEvent(events, 1_000, 3).execute(eventId);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('resumes a fan-out stored with the single cursor of earlier versions', async () => {
    const eventId = await fanningOutEvent('lanes-5', [], { after: null });
    await new FanOutEvent(events, 1_000, 3).execute(eventId);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });
});
