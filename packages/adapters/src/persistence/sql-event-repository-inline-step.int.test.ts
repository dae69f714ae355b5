import { FanOutEvent, inlineJob, wholeRange, type FanoutCandidate, type JobOutcome } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { STEPS_QUEUE } from '../queue/pg-boss-delivery-queue';
import { useFanoutFixture } from '../testing/fanout-fixture';
import { testChannelCipher } from '../testing/test-channel-cipher';

const SUBSCRIBERS = 2_500;
const f = useFanoutFixture(SUBSCRIBERS);

describe("a workflow's first in-app step, run within the fan-out", () => {
  beforeAll(async () => {
    await f.database.db.pool.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'news-then-custom', 'n') RETURNING id)
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
       SELECT id, s.step_id, s.step_id, s.type, s.position, s.controls::jsonb FROM w,
         (VALUES ('inbox', 'in_app', 0, '{"body":"Hi {{subscriber.subscriberId}}"}'), ('after', 'custom', 1, '{}')) AS s(step_id, type, position, controls)`,
      [f.env],
    );
  });

  const count = async (sql: string, params: unknown[]) => (await f.database.db.pool.query<{ n: number }>(sql, params)).rows[0].n;

  /** The first chunk of a new fan-out of 'news-then-custom', and each recipient's job for its inline step. */
  async function firstChunk(transactionId: string, size: number) {
    const eventId = await f.fanningOutEvent(transactionId, [], { lanes: wholeRange() }, 'news-then-custom');
    const event = (await f.events.loadFanout(eventId))!;
    const [lane] = event.lanes;
    const chunk = await f.events.fanoutCandidates(event, lane, size);
    const [step] = event.workflow.steps;
    return { eventId, event, lane, chunk, jobOf: (candidate: FanoutCandidate) => inlineJob(event, candidate, step) };
  }

  it("reads each recipient as a step sees it: every field a template, condition or channel reads, exactly as stored", async () => {
    const { pool } = f.database.db;
    const channels = [{ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/x' } }];
    const data = { tier: 'gold', nested: { list: [1, 'two', null] }, note: 'ü 🎉 "quoted"' };
    await pool.query(
      `WITH s AS (INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name, email, phone, avatar, locale, timezone, data, channels, is_online, version)
                  VALUES ($1, 'full-1', 'Ada', 'Lovelace', 'ada@example.com', '+15550001', 'https://img.example/a.png', 'en_GB', 'Europe/London', $2, $3, true, 7)
                  RETURNING id),
       t AS (INSERT INTO topics (environment_id, key) VALUES ($1, 'vip') RETURNING id)
       INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier) SELECT $1, t.id, s.id, 'vip:full-1' FROM t, s`,
      [f.env, JSON.stringify(data), JSON.stringify(testChannelCipher.seal(channels))],
    );
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO events (environment_id, workflow_id, transaction_id, "to", status, fanout_cursor)
       SELECT $1, id, 'vip-1', '{}', 'fanning_out', $2 FROM workflows WHERE workflow_id = 'news-then-custom' RETURNING id`,
      [f.env, JSON.stringify({ topics: [{ topicKey: 'vip', exclude: [] }], lanes: wholeRange() })],
    );
    const event = (await f.events.loadFanout(rows[0].id))!;
    const [candidate] = await f.events.fanoutCandidates(event, event.lanes[0], 10);
    const [{ id }] = (await pool.query<{ id: string }>("SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = 'full-1'", [f.env])).rows;
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
    const eventId = await f.fanningOutEvent('inline-1', [], { lanes: wholeRange() }, 'news-then-custom');
    // u1 was also a direct recipient of the trigger: it already has its notification, and gets nothing more here.
    await f.database.db.pool.query(
      `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
       SELECT e.environment_id, e.id, e.workflow_id, s.id, e.transaction_id FROM events e, subscribers s WHERE e.id = $1 AND s.subscriber_id = 'u1'`,
      [eventId],
    );
    const result = await new FanOutEvent(f.events, { chunkSize: 1_000, laneCount: 3, steps: f.steps }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 1);

    expect(await count(`SELECT count(*)::int AS n FROM notifications WHERE event_id = $1 AND inline_status = 'completed' AND inline_details IS NULL`, [eventId])).toBe(SUBSCRIBERS - 1);
    const messages = await f.database.db.pool.query<{ body: string; matches: boolean }>(
      `SELECT m.body, n.inline_job_id = m.job_id AS matches FROM messages m JOIN notifications n ON n.id = m.notification_id
       JOIN subscribers s ON s.id = m.subscriber_id WHERE n.event_id = $1 ORDER BY s.subscriber_id`,
      [eventId],
    );
    expect(messages.rows).toHaveLength(SUBSCRIBERS - 1);
    expect(messages.rows.every((m) => m.matches)).toBe(true);
    expect(messages.rows.map((m) => m.body)).not.toContain('Hi u1');
    expect(messages.rows.map((m) => m.body)).toContain('Hi u2');

    const jobs = await f.database.db.pool.query<{ type: string; status: string; n: number }>(
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
    const written = await f.events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[1].subscriberId } }, [halted, ran]);
    expect(new Set(written)).toEqual(new Set(chunk.map((c) => c.notificationId)));
    const rows = await f.database.db.pool.query<{ id: string; status: string; inline: string; detail: string }>(
      `SELECT n.id, j.status, n.inline_status AS inline, n.inline_details->0->>'detail' AS detail FROM notifications n JOIN jobs j ON j.notification_id = n.id WHERE n.event_id = $1`,
      [eventId],
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    // Details other than a message stored in the inbox are kept as they were.
    expect(byId.get(chunk[0].notificationId)).toMatchObject({ status: 'canceled', inline: 'failed', detail: 'no' });
    expect(byId.get(chunk[1].notificationId)).toMatchObject({ status: 'queued', inline: 'skipped', detail: 'skipped' });
    // The event (written here with no channels, as one triggered before its workflow gained steps)
    // now has its notifications' channels: the activity log's channel filter finds them through it.
    const [{ channels }] = (await f.database.db.pool.query<{ channels: string[] }>('SELECT channels FROM events WHERE id = $1', [eventId])).rows;
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
    await f.events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[3].subscriberId } }, [...outcomes].reverse());
    const { rows } = await f.database.db.pool.query(
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
    await f.events.commitFanoutChunk(event, chunk, { from: lane, index: 0, lane: { ...lane, after: chunk[2].subscriberId } }, outcomes);
    const { rows } = await f.database.db.pool.query(
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
