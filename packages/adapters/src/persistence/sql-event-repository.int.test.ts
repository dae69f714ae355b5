import { CustomStepHandler, FanOutEvent, FIRST_UUID, InAppStepHandler, inlineJob, LAST_UUID, RunNotifications, wholeRange, type EventRepository, type FanoutCandidate, type JobOutcome, type StepHandlers } from '@herald/domain';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue, STEPS_QUEUE } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlEventRepository, WORKFLOW_CACHE_MS } from './sql-event-repository';
import { SqlJobRepository } from './sql-job-repository';

const SUBSCRIBERS = 2_500;
const database = useTestDatabase();
let boss: PgBoss;
let events: SqlEventRepository;
let queue: PgBossDeliveryQueue;
let env: string;
let steps: RunNotifications;

beforeAll(async () => {
  const { pool, prisma } = database.db;
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  events = new SqlEventRepository(pool, queue);
  // Only the step types these workflows have.
  const handlers = { in_app: new InAppStepHandler('herald'), custom: new CustomStepHandler() } as Partial<StepHandlers> as StepHandlers;
  steps = new RunNotifications(new SqlJobRepository(pool, queue), handlers);
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

async function fanningOutEvent(
  transactionId: string,
  exclude: string[] = [],
  cursor: Record<string, unknown> = { lanes: wholeRange() },
  workflowId = 'news',
): Promise<string> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `INSERT INTO events (environment_id, workflow_id, transaction_id, "to", status, fanout_cursor)
     SELECT $1, id, $2, '{}', 'fanning_out', $3 FROM workflows WHERE workflow_id = $4 RETURNING id`,
    [env, transactionId, JSON.stringify({ topics: [{ topicKey: 'everyone', exclude }], ...cursor }), workflowId],
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

describe('workflow definitions for triggers', () => {
  it('are read once for the triggers asking at the same time, reused for a second, and read again while unknown', async () => {
    const { pool } = database.db;
    let reads = 0;
    // The real pool, counting the statements that read a workflow's definition.
    const counting = new Proxy(pool, {
      get(target, property) {
        if (property !== 'query') return Reflect.get(target, property, target);
        return (...args: Parameters<typeof pool.query>) => {
          const [config] = args as unknown[];
          if (String(typeof config === 'string' ? config : (config as { text: string }).text).includes('FROM workflows w LEFT JOIN workflow_steps')) reads++;
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      },
    });
    const repo = new SqlEventRepository(counting, queue);

    const together = await Promise.all(Array.from({ length: 20 }, () => repo.findWorkflow(env, 'news')));
    expect(reads).toBe(1);
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toMatchObject({ identifier: 'news', steps: [{ stepId: 'inbox', type: 'in_app' }] });
    expect(await repo.findWorkflow(env, 'news')).toBe(together[0]);
    expect(reads).toBe(1);

    // Unknown: the callers of the moment share the answer, and the next call reads again.
    expect(await Promise.all([repo.findWorkflow(env, 'later'), repo.findWorkflow(env, 'later')])).toEqual([null, null]);
    expect(reads).toBe(2);
    await pool.query("INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'later', 'Later')", [env]);
    expect(await repo.findWorkflow(env, 'later')).toMatchObject({ identifier: 'later', name: 'Later' });
    expect(reads).toBe(3);

    // An edit is seen once the definition read before it is a second old.
    await pool.query("UPDATE workflows SET name = 'Later, renamed' WHERE environment_id = $1 AND workflow_id = 'later'", [env]);
    expect(await repo.findWorkflow(env, 'later')).toMatchObject({ name: 'Later' });
    await new Promise((resolve) => setTimeout(resolve, WORKFLOW_CACHE_MS + 50));
    expect(await repo.findWorkflow(env, 'later')).toMatchObject({ name: 'Later, renamed' });
    expect(reads).toBe(4);
  });
});

describe('topic fan-out in lanes', () => {
  it('splits a large topic into lanes that together reach every subscriber once, minus the excluded', async () => {
    const eventId = await fanningOutEvent('lanes-1', ['u7', 'u2000']);
    const result = await new FanOutEvent(events, { chunkSize: 400, laneCount: 3 }).execute(eventId);
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
          return await new FanOutEvent(events, { chunkSize: 300, laneCount: 3 }).execute(eventId);
        } catch (error) {
          expect((error as Error).message).toMatch(/moved on by another run/);
        }
      }
      throw new Error('fan-out never finished');
    };
    await Promise.all([run(), run(), run()]);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('writes a chunk again, skipping them, when recipients of a topic-only trigger have a notification already', async () => {
    // No direct recipients: chunks are inserted without a conflict check. u3 and u4 have their
    // notifications as another run's committed chunk would have left them: the chunk holding them is
    // refused by the unique (event, subscriber) index, then written again skipping them.
    const eventId = await fanningOutEvent('lanes-topic-only', [], { lanes: wholeRange(), direct: false });
    expect((await events.loadFanout(eventId))!.directRecipients).toBe(false);
    await database.db.pool.query(
      `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
       SELECT e.environment_id, e.id, e.workflow_id, s.id, e.transaction_id FROM events e, subscribers s WHERE e.id = $1 AND s.subscriber_id IN ('u3', 'u4')`,
      [eventId],
    );
    const result = await new FanOutEvent(events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 2);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('splits a topic larger than a chunk before its first chunk, so every lane starts at once', async () => {
    const eventId = await fanningOutEvent('lanes-early');
    const first = (await events.loadFanout(eventId))!;
    const [lane] = first.lanes;
    // The probe counts subscriptions in the lane's range: the whole topic, then ranges holding none.
    expect(await events.fanoutExceeds(first, lane, SUBSCRIBERS - 1)).toBe(true);
    expect(await events.fanoutExceeds(first, lane, SUBSCRIBERS)).toBe(false);
    expect(await events.fanoutExceeds(first, { ...lane, after: lane.until }, 0)).toBe(false);
    // Every candidate read and chunk written, in order, through the real repository.
    const calls: string[] = [];
    const recording: EventRepository = {
      findWorkflow: (environmentId, identifier) => events.findWorkflow(environmentId, identifier),
      accept: (acceptance, runInline) => events.accept(acceptance, runInline),
      loadFanout: (id) => events.loadFanout(id),
      fanoutExceeds: (event, l, count) => events.fanoutExceeds(event, l, count),
      fanoutCandidates(event, l, limit) {
        calls.push(`read ${l.until === LAST_UUID && l.after === FIRST_UUID ? 'whole' : 'lane'}`);
        return events.fanoutCandidates(event, l, limit);
      },
      commitFanoutChunk(event, accepted, progress, inline) {
        calls.push('split' in progress ? `split ${progress.split.length} with ${accepted.length}` : `chunk of ${accepted.length}`);
        return events.commitFanoutChunk(event, accepted, progress, inline);
      },
    };
    const result = await new FanOutEvent(recording, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS);
    // The split is committed alone, before anything is read; every read is of a lane.
    expect(calls[0]).toBe('split 3 with 0');
    expect(calls.slice(1).filter((c) => c.startsWith('read')).every((c) => c === 'read lane')).toBe(true);
    const after = await outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(3);
  });

  it('still splits after a first chunk that fills, when the probe found no more than a chunk', async () => {
    // Exactly a chunk of subscriptions: not more than a chunk, so no split up front; the first chunk
    // then fills, and the rest of the range is split as before (its lanes find nobody left).
    const eventId = await fanningOutEvent('lanes-exact');
    const result = await new FanOutEvent(events, { chunkSize: SUBSCRIBERS, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS);
    const after = await outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(3);
  });

  it('leaves a small topic as one lane', async () => {
    const eventId = await fanningOutEvent('lanes-3');
    await new FanOutEvent(events, { chunkSize: 5_000, laneCount: 3 }).execute(eventId);
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
    expect(await events.commitFanoutChunk(first, chunk, { from: lane, index: 0, lane: moved }, [])).toHaveLength(10);
    // The other run read the same chunk from the same start: its progress would move the lane back.
    await expect(events.commitFanoutChunk(overtaken, chunk, { from: lane, index: 0, lane: moved }, [])).rejects.toThrow(/moved on by another run/);
    const stored = await database.db.pool.query('SELECT fanout_cursor FROM events WHERE id = $1', [eventId]);
    expect(stored.rows[0].fanout_cursor.lanes).toEqual([moved]);
    await new FanOutEvent(events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('resumes a fan-out stored with the single cursor of earlier versions', async () => {
    const eventId = await fanningOutEvent('lanes-5', [], { after: null });
    await new FanOutEvent(events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(await outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });
});

describe("a workflow's first in-app step, run within the fan-out", () => {
  beforeAll(async () => {
    await database.db.pool.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'news-then-custom', 'n') RETURNING id)
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
       SELECT id, s.step_id, s.step_id, s.type, s.position, s.controls::jsonb FROM w,
         (VALUES ('inbox', 'in_app', 0, '{"body":"Hi {{subscriber.subscriberId}}"}'), ('after', 'custom', 1, '{}')) AS s(step_id, type, position, controls)`,
      [env],
    );
  });

  const count = async (sql: string, params: unknown[]) => (await database.db.pool.query<{ n: number }>(sql, params)).rows[0].n;

  /** The first chunk of a new fan-out of 'news-then-custom', and each recipient's job for its inline step. */
  async function firstChunk(transactionId: string, size: number) {
    const eventId = await fanningOutEvent(transactionId, [], { lanes: wholeRange() }, 'news-then-custom');
    const event = (await events.loadFanout(eventId))!;
    const [lane] = event.lanes;
    const chunk = await events.fanoutCandidates(event, lane, size);
    const [step] = event.workflow.steps;
    return { eventId, event, lane, chunk, jobOf: (candidate: FanoutCandidate) => inlineJob(event, candidate, step) };
  }

  it("reads each recipient as a step sees it: every field a template, condition or channel reads, exactly as stored", async () => {
    const { pool } = database.db;
    const channels = [{ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/x' } }];
    const data = { tier: 'gold', nested: { list: [1, 'two', null] }, note: 'ü 🎉 "quoted"' };
    await pool.query(
      `WITH s AS (INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name, email, phone, avatar, locale, timezone, data, channels, is_online, version)
                  VALUES ($1, 'full-1', 'Ada', 'Lovelace', 'ada@example.com', '+15550001', 'https://img.example/a.png', 'en_GB', 'Europe/London', $2, $3, true, 7)
                  RETURNING id),
       t AS (INSERT INTO topics (environment_id, key) VALUES ($1, 'vip') RETURNING id)
       INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier) SELECT $1, t.id, s.id, 'vip:full-1' FROM t, s`,
      [env, JSON.stringify(data), JSON.stringify(channels)],
    );
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO events (environment_id, workflow_id, transaction_id, "to", status, fanout_cursor)
       SELECT $1, id, 'vip-1', '{}', 'fanning_out', $2 FROM workflows WHERE workflow_id = 'news-then-custom' RETURNING id`,
      [env, JSON.stringify({ topics: [{ topicKey: 'vip', exclude: [] }], lanes: wholeRange() })],
    );
    const event = (await events.loadFanout(rows[0].id))!;
    const [candidate] = await events.fanoutCandidates(event, event.lanes[0], 10);
    const [{ id }] = (await pool.query<{ id: string }>("SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = 'full-1'", [env])).rows;
    expect(candidate.recipient).toEqual({
      id,
      subscriberId: 'full-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+15550001',
      avatar: 'https://img.example/a.png',
      locale: 'en_GB',
      timezone: 'Europe/London',
      data,
      channels,
    });
  });

  it('writes each recipient its notification and inbox message, no job for that step, and queues the next step', async () => {
    const eventId = await fanningOutEvent('inline-1', [], { lanes: wholeRange() }, 'news-then-custom');
    // u1 was also a direct recipient of the trigger: it already has its notification, and gets nothing more here.
    await database.db.pool.query(
      `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
       SELECT e.environment_id, e.id, e.workflow_id, s.id, e.transaction_id FROM events e, subscribers s WHERE e.id = $1 AND s.subscriber_id = 'u1'`,
      [eventId],
    );
    const result = await new FanOutEvent(events, { chunkSize: 1_000, laneCount: 3, steps }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 1);

    expect(await count(`SELECT count(*)::int AS n FROM notifications WHERE event_id = $1 AND inline_status = 'completed' AND inline_details IS NULL`, [eventId])).toBe(SUBSCRIBERS - 1);
    const messages = await database.db.pool.query<{ body: string; matches: boolean }>(
      `SELECT m.body, n.inline_job_id = m.job_id AS matches FROM messages m JOIN notifications n ON n.id = m.notification_id
       JOIN subscribers s ON s.id = m.subscriber_id WHERE n.event_id = $1 ORDER BY s.subscriber_id`,
      [eventId],
    );
    expect(messages.rows).toHaveLength(SUBSCRIBERS - 1);
    expect(messages.rows.every((m) => m.matches)).toBe(true);
    expect(messages.rows.map((m) => m.body)).not.toContain('Hi u1');
    expect(messages.rows.map((m) => m.body)).toContain('Hi u2');

    const jobs = await database.db.pool.query<{ type: string; status: string; n: number }>(
      `SELECT j.type, j.status, count(*)::int AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.event_id = $1 GROUP BY 1, 2`,
      [eventId],
    );
    expect(jobs.rows).toEqual([{ type: 'custom', status: 'queued', n: SUBSCRIBERS - 1 }]);
    // Every notification with a queued step is in a queue message.
    const queued = await count(
      `SELECT count(*)::int AS n FROM pgboss.job j, jsonb_array_elements_text(j.data->'notificationIds') AS queued(id)
       WHERE j.name = $1 AND queued.id::uuid IN (SELECT n.id FROM notifications n WHERE n.event_id = $2)`,
      [STEPS_QUEUE, eventId],
    );
    expect(queued).toBe(SUBSCRIBERS - 1);
  });

  it('cancels the remaining steps of a recipient whose inline step halted, and queues nothing for it', async () => {
    const { eventId, event, lane, chunk, jobOf } = await firstChunk('inline-2', 2);
    const halted: JobOutcome = { job: jobOf(chunk[0]), status: 'failed', halt: true, details: [{ status: 'Failed', source: 'Internal', detail: 'no' }] };
    const ran: JobOutcome = { job: jobOf(chunk[1]), status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail: 'skipped' }] };
    const written = await events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[1].subscriberId } }, [halted, ran]);
    expect(new Set(written)).toEqual(new Set(chunk.map((c) => c.notificationId)));
    const rows = await database.db.pool.query<{ id: string; status: string; inline: string; detail: string }>(
      `SELECT n.id, j.status, n.inline_status AS inline, n.inline_details->0->>'detail' AS detail FROM notifications n JOIN jobs j ON j.notification_id = n.id WHERE n.event_id = $1`,
      [eventId],
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    // Details other than a message stored in the inbox are kept as they were.
    expect(byId.get(chunk[0].notificationId)).toMatchObject({ status: 'canceled', inline: 'failed', detail: 'no' });
    expect(byId.get(chunk[1].notificationId)).toMatchObject({ status: 'queued', inline: 'skipped', detail: 'skipped' });
    // The event (written here with no channels, as one triggered before its workflow gained steps)
    // now has its notifications' channels: the activity log's channel filter finds them through it.
    const [{ channels }] = (await database.db.pool.query<{ channels: string[] }>('SELECT channels FROM events WHERE id = $1', [eventId])).rows;
    expect(channels).toEqual(event.workflow.steps.map((s) => s.type).sort());
    expect(await count(`SELECT count(*)::int AS n FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.event_id = $1`, [eventId])).toBe(0);
    const queued = await count(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->'notificationIds' ? $2`, [STEPS_QUEUE, chunk[0].notificationId]);
    expect(queued).toBe(0);
  });

  it('gives each message the ids of its own recipient, when only some recipients of a chunk have one', async () => {
    const { eventId, event, lane, chunk, jobOf } = await firstChunk('inline-4', 4);
    const outcomes: JobOutcome[] = chunk.map((c, i) => ({
      job: jobOf(c),
      status: i === 1 ? 'skipped' : 'completed',
      details: [{ status: 'Success', source: 'Internal', detail: i === 1 ? 'skipped' : 'stored' }],
      ...(i === 1 ? {} : { message: { channel: 'in_app' as const, providerId: null, integrationId: null, destination: null, subject: null, body: `for ${c.recipient.subscriberId}`, status: 'sent' as const } }),
    }));
    // The outcomes in another order than the recipients': each is matched to its own by its ids.
    await events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[3].subscriberId } }, [...outcomes].reverse());
    const { rows } = await database.db.pool.query(
      `SELECT m.subscriber_id, m.notification_id, m.job_id, m.body FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.event_id = $1 ORDER BY m.body`,
      [eventId],
    );
    const expected = [0, 2, 3].map((i) => ({
      subscriber_id: chunk[i].subscriberId,
      notification_id: chunk[i].notificationId,
      job_id: chunk[i].inlineJobId,
      body: `for ${chunk[i].recipient.subscriberId}`,
    }));
    expect(rows).toEqual(expected.sort((a, b) => a.body.localeCompare(b.body)));
  });

  it("stores each message's text and JSON exactly as the step produced them, whatever characters they hold", async () => {
    const { eventId, event, lane, chunk, jobOf } = await firstChunk('inline-3', 3);
    // What an array parameter's text encoding must escape (quotes, backslashes, braces, commas, the
    // word NULL, blanks), and NUL, which PostgreSQL text cannot hold: it is dropped, as from JSON.
    const tricky = ['say "hi", {friend}\\ \\" NULL', 'NULL', '  tabs\tand\nlines  ', 'zero\u0000byte ü 🎉'];
    const outcomes: JobOutcome[] = chunk.map((c, i) => ({
      job: jobOf(c),
      status: 'completed',
      details: [{ status: 'Success', source: 'Internal', detail: 'stored' }],
      message: {
        channel: 'in_app',
        providerId: 'herald',
        integrationId: null,
        destination: { subscriberId: tricky[i] },
        subject: i === 1 ? null : tricky[i + 1],
        body: tricky[i],
        avatar: i === 2 ? tricky[0] : null,
        data: { text: tricky[3], nested: { list: [tricky[0], null] } },
        status: 'sent',
      },
    }));
    await events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[2].subscriberId } }, outcomes);
    const { rows } = await database.db.pool.query(
      `SELECT m.job_id, m.body, m.subject, m.avatar, m.destination, m.data, m.channel, m.provider_id, m.status, m.integration_id, m.workflow->>'identifier' AS workflow
       FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.event_id = $1`,
      [eventId],
    );
    const byJob = new Map(rows.map((r) => [r.job_id, r]));
    const dropNul = (s: string) => s.replace('\u0000', '');
    for (const [i, o] of outcomes.entries()) {
      expect(byJob.get(o.job.jobId)).toEqual({
        job_id: o.job.jobId,
        body: dropNul(tricky[i]),
        subject: i === 1 ? null : dropNul(tricky[i + 1]),
        avatar: i === 2 ? tricky[0] : null,
        destination: { subscriberId: dropNul(tricky[i]) },
        data: { text: dropNul(tricky[3]), nested: { list: [tricky[0], null] } },
        channel: 'in_app',
        provider_id: 'herald',
        status: 'sent',
        integration_id: null,
        workflow: 'news-then-custom',
      });
    }
  });
});
