import pg from 'pg';
import { historyTarget, insertDeliveryHistory } from '@herald/adapters/testing/delivery-history-rows';
import { createTestDatabase } from '@herald/adapters/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { operatorCommand } from './support/operator-command';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 45 acceptance (retention): the service purges delivery history past each environment's
// retention on its own schedule, never what is in flight, leaves the activity log and inbox counts
// agreeing with what is left, survives a SIGKILL mid-purge without losing or double-counting a row,
// and never purges a restored day twice. Time moves by ageing the history (created_at moved back),
// which is what a clock moved forward looks like to the purge.
const DAY_MS = 86_400_000;
const running: TestService[] = [];
afterEach(async () => {
  for (const svc of running.splice(0)) await svc.dispose();
});

async function start(env: Record<string, string> = {}): Promise<TestService> {
  const svc = await startService(env);
  running.push(svc);
  return svc;
}

const developmentId = async (svc: TestService) =>
  (await queryDatabase<{ id: string }>(svc.databaseUrl, "SELECT id FROM environments WHERE slug = 'development'"))[0].id;

/** Moves the notifications of these transactions, with their events, jobs, details and messages, `days` into the past. */
async function age(svc: TestService, transactionIds: string[], days: number): Promise<void> {
  await queryDatabase(
    svc.databaseUrl,
    `WITH n AS (UPDATE notifications SET created_at = created_at - make_interval(days => $2) WHERE transaction_id = ANY($1) RETURNING id, event_id),
     e AS (UPDATE events SET created_at = created_at - make_interval(days => $2) WHERE id IN (SELECT event_id FROM n)),
     j AS (UPDATE jobs SET created_at = created_at - make_interval(days => $2) WHERE notification_id IN (SELECT id FROM n)),
     d AS (UPDATE execution_details SET created_at = created_at - make_interval(days => $2) WHERE notification_id IN (SELECT id FROM n))
     UPDATE messages SET created_at = created_at - make_interval(days => $2) WHERE notification_id IN (SELECT id FROM n)`,
    [transactionIds, days],
  );
}

const completedPurges = async (svc: TestService) =>
  (await queryDatabase<{ n: number }>(svc.databaseUrl, "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'retention-purge' AND state = 'completed'"))[0].n;

/** `pnpm herald retention purge`, then waits until the service has run it. */
async function purgeNow(svc: TestService): Promise<void> {
  const before = await completedPurges(svc);
  expect(await operatorCommand(svc.databaseUrl, 'retention', 'purge')).toMatch(/^Purge queued|already waiting/);
  // A run the minute's tick started may be under way: the one queued starts after it (pg-boss polls every 30 s at worst).
  await waitFor(async () => (await completedPurges(svc)) > before, 180_000, 200);
}

interface DayRow {
  state: string;
  notifications: number;
  jobs: number;
  execution_details: number;
  messages: number;
  events: number;
}

const dayRecords = (svc: TestService) =>
  queryDatabase<DayRow & { day: string }>(
    svc.databaseUrl,
    `SELECT day::text, state, notifications::int, jobs::int, execution_details::int, messages::int, events::int FROM retention_days ORDER BY day`,
  );

describe('retention', () => {
  it('purges history past its retention on its own schedule, keeps what is in flight, and leaves the activity log and counts agreeing', async () => {
    const svc = await start();
    const bell = { type: 'in_app', stepId: 'bell', controlValues: { body: 'Order {{payload.n}}' } };
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'note' }, [bell]);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'later' }, [{ type: 'delay', stepId: 'wait', controlValues: { type: 'regular', amount: 2, unit: 'days' } }, bell]);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'bundle' }, [{ type: 'digest', stepId: 'digest', controlValues: { amount: 1, unit: 'days' } }, bell]);
    const trigger = async (name: string, transactionId: string) =>
      expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name, to: 'ada', payload: { n: transactionId }, transactionId } })).status).toBe(201);
    for (let i = 0; i < 6; i++) await trigger('note', `note-${i}`);
    await trigger('later', 'later-0');
    await trigger('bundle', 'bundle-0');
    await waitFor(async () => {
      const [row] = await queryDatabase<{ inbox: number; waiting: number }>(
        svc.databaseUrl,
        `SELECT (SELECT count(*)::int FROM messages WHERE channel = 'in_app') AS inbox, (SELECT count(*)::int FROM jobs WHERE status = 'delayed') AS waiting`,
      );
      return row.inbox === 6 && row.waiting === 2;
    }, 60_000);
    const old = ['note-0', 'note-1', 'note-2', 'note-3', 'later-0', 'bundle-0'];
    await age(svc, old, 100);
    const activity = async () => {
      const page = (await (await svc.request('/v1/notifications?limit=50')).json()) as { data: Array<{ _id: string; transactionId: string }> };
      return page.data;
    };
    // The first trigger to a new subscriber runs its step as a job, the others inline: count what the old notes have.
    const [{ jobs, details }] = await queryDatabase<{ jobs: number; details: number }>(
      svc.databaseUrl,
      `SELECT (SELECT count(*)::int FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id LIKE 'note-%' AND n.transaction_id < 'note-4') AS jobs,
              (SELECT count(*)::int FROM execution_details d JOIN notifications n ON n.id = d.notification_id WHERE n.transaction_id LIKE 'note-%' AND n.transaction_id < 'note-4') AS details`,
    );
    const before = await activity();
    expect(before).toHaveLength(8);
    const purgedId = before.find((n) => n.transactionId === 'note-0')!._id;

    // The environment's own 120 days keep the 100-day-old history; back to the service's 90 (the default), it goes.
    expect(await operatorCommand(svc.databaseUrl, 'environments', 'set', 'development', '--retention-days', '120')).toContain('retention 120 days');
    await purgeNow(svc);
    expect(await activity()).toHaveLength(8);
    // A bad value is refused, naming the field, and changes nothing (neither the retention nor the other settings given with it).
    await expect(operatorCommand(svc.databaseUrl, 'environments', 'set', 'development', '--retention-days', '0', '--inbox-hmac', 'on')).rejects.toMatchObject({
      stderr: expect.stringContaining('retentionDays: must be a whole number of days from 1 to 3650'),
    });
    expect(await operatorCommand(svc.databaseUrl, 'environments')).toMatch(/development\t.*inbox HMAC off.*\tretention 120 days\n/);
    expect(await operatorCommand(svc.databaseUrl, 'environments', 'set', 'development', '--retention-days', 'default')).toContain('retention 90 days (the service default)');
    // No command this time: the minute's schedule runs the purge (pg-boss files a tick within ~30 s of the minute).
    expect(await queryDatabase(svc.databaseUrl, "SELECT cron FROM pgboss.schedule WHERE name = 'retention-purge'")).toEqual([{ cron: '* * * * *' }]);
    await waitFor(async () => (await activity()).length === 4, 120_000, 1_000);

    const left = await activity();
    expect(left.map((n) => n.transactionId).sort()).toEqual(['bundle-0', 'later-0', 'note-4', 'note-5']);
    expect((await svc.request(`/v1/notifications/${purgedId}`)).status).toBe(404);
    // What is in flight keeps its jobs: the delay and the open digest still wait.
    const later = left.find((n) => n.transactionId === 'later-0')!;
    const detail = (await (await svc.request(`/v1/notifications/${later._id}`)).json()) as { data: { jobs: Array<{ status: string }> } };
    expect(detail.data.jobs.map((j) => j.status)).toContain('delayed');
    // The subscriber's inbox count is what its list shows: the two young notes.
    const count = (await (await svc.request(`/v2/subscribers/ada/notifications/count?filters=${encodeURIComponent('[{"read":false}]')}`)).json()) as { data: Array<{ count: number }> };
    const inbox = (await (await svc.request('/v2/subscribers/ada/notifications?limit=50')).json()) as { data: unknown[] };
    expect([count.data[0].count, inbox.data.length]).toEqual([2, 2]);
    // The day keeps its two notifications in flight (and their events); the operator sees what went.
    const [day] = await dayRecords(svc);
    expect(day).toMatchObject({ state: 'purging', notifications: 4, jobs, execution_details: details, messages: 4, events: 4 });
    const report = await operatorCommand(svc.databaseUrl, 'retention');
    expect(report).toContain('development: retention 90 days (the service default)');
    expect(report).toMatch(new RegExp(`${day.day}\\tpurging, 4 rows kept in flight\\t4 notifications, ${jobs} jobs, ${details} details, 4 messages, 0 digests, 4 events`));
  }, 480_000);

  it('tells the operator who asks for a purge that only a running service purges', async () => {
    const db = await createTestDatabase(inject('adminDatabaseUrl'));
    try {
      await expect(operatorCommand(db.url, 'retention', 'purge')).rejects.toMatchObject({ stderr: expect.stringContaining('No Herald process with delivery workers has started') });
    } finally {
      await db.drop();
    }
  });

  it('loses and double-counts nothing when killed mid-purge, and never purges a restored day again', async () => {
    const svc = await start();
    const pool = new pg.Pool({ connectionString: svc.databaseUrl, max: 2 });
    try {
      const target = await historyTarget(pool, await developmentId(svc), 'old', 10);
      const from = new Date(Math.floor((Date.now() - 100 * DAY_MS) / DAY_MS) * DAY_MS);
      const COUNT = 20_000;
      await insertDeliveryHistory(pool, target, { count: COUNT, from, spacingMs: 3, tag: 'old' });
      const left = async () => (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM notifications WHERE transaction_id LIKE 'old-%'")).rows[0].n;

      // The minute's schedule may have filed a run already: either starts the purge.
      expect(await operatorCommand(svc.databaseUrl, 'retention', 'purge')).toMatch(/^Purge queued|already waiting/);
      await waitFor(async () => ((await dayRecords(svc))[0]?.notifications ?? 0) >= 1_000, 60_000, 5);
      await svc.kill();
      // Every batch committed before the kill is counted, and no other: what is left plus what is counted is all of it.
      const [cut] = await dayRecords(svc);
      expect(cut.state).toBe('purging');
      expect(cut.notifications).toBeLessThan(COUNT);
      expect(cut.notifications + (await left())).toBe(COUNT);

      // The killed run held the task's one active place: pg-boss fails it at its next monitor pass
      // (heartbeat lost; within about two minutes), then a run goes on where the last batch stopped.
      await svc.restart();
      expect(await operatorCommand(svc.databaseUrl, 'retention', 'purge')).toMatch(/^Purge queued|already waiting/);
      await waitFor(async () => (await dayRecords(svc))[0].state === 'purged', 240_000, 500);
      const all = { state: 'purged', notifications: COUNT, jobs: COUNT, execution_details: 2 * COUNT, messages: 2 * COUNT, events: COUNT };
      expect((await dayRecords(svc))[0]).toMatchObject(all);
      expect(await left()).toBe(0);

      // A backup of that day restored: the day is done, so its rows stay and nothing is counted again.
      await insertDeliveryHistory(pool, target, { count: 50, from, spacingMs: 1_000, tag: 'old-restored' });
      await purgeNow(svc);
      expect(await left()).toBe(50);
      expect(await dayRecords(svc)).toEqual([expect.objectContaining(all)]);
    } finally {
      await pool.end();
    }
  }, 420_000);
});
