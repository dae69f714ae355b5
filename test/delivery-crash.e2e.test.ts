import { afterEach, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// SIGKILL while a topic fan-out runs, and every subscriber ends with exactly one inbox notification
// for that trigger. The dead process's work is taken over within 5 s (as soon as PostgreSQL sees its
// connection end, not when its leases lapse, which would take 30 s and more), and all 20,000 are delivered within 10 s of the restart (counted from the moment the
// new process is started, its own start included) or of the kill, with a surviving second process.
// These bounds are the service's throughput, so this file runs alone, after the rest of the suite
// (vitest.config.ts); the times are printed.
const SUBSCRIBERS = 20_000;
const TAKEN_OVER_WITHIN_MS = 5_000;
const RESUMED_WITHIN_MS = 5_000;
const FINISHED_WITHIN_MS = 10_000;
const TX = 'tx-crash';
const running: TestService[] = [];

afterEach(async () => {
  // Peers first: the first service's dispose drops the database.
  for (const svc of running.reverse()) await svc.dispose();
  running.length = 0;
});

async function seed(svc: TestService): Promise<void> {
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'broadcast' }, [{ type: 'in_app', controlValues: { body: 'Hello {{subscriber.subscriberId}}' } }]);
  // Setup straight in SQL: this test is about recovery, not about the subscription API.
  await queryDatabase(
    svc.databaseUrl,
    `WITH env AS (SELECT id FROM environments WHERE slug = 'development'),
     subs AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT env.id, 'crash-' || g FROM env, generate_series(1, $1) g RETURNING id, environment_id, subscriber_id),
     topic AS (INSERT INTO topics (environment_id, key) SELECT id, 'everyone' FROM env RETURNING id, environment_id)
     INSERT INTO topic_subscriptions (environment_id, topic_id, subscriber_id, identifier)
     SELECT topic.environment_id, topic.id, subs.id, 'everyone:' || subs.subscriber_id FROM topic, subs`,
    [SUBSCRIBERS],
  );
}

/** Triggers the broadcast and returns once delivery has visibly started but the fan-out has not finished. */
async function triggerAndCatchFanningOut(svc: TestService): Promise<{ ownerPid: number | null }> {
  const res = await svc.request('/v1/events/trigger', {
    method: 'POST',
    json: { name: 'broadcast', to: { type: 'Topic', topicKey: 'everyone' }, transactionId: TX },
  });
  expect((await res.json()).data.status).toBe('processed');
  return waitFor(async () => {
    const [row] = await queryDatabase<{ status: string; delivered: number; pid: number | null }>(
      svc.databaseUrl,
      `SELECT e.status, (SELECT count(*)::int FROM notifications n WHERE n.event_id = e.id) AS delivered, w.pid
       FROM events e LEFT JOIN worker_processes w ON w.id = e.fanout_owner WHERE e.transaction_id = $1`,
      [TX],
    );
    if (!row || row.delivered === 0) return null;
    expect(row.status).toBe('fanning_out');
    return { ownerPid: row.pid };
  }, 30_000, 5);
}

async function notifications(databaseUrl: string): Promise<number> {
  const [{ n }] = await queryDatabase<{ n: number }>(databaseUrl, 'SELECT count(*)::int AS n FROM notifications WHERE transaction_id = $1', [TX]);
  return n;
}

/** Only a run that took the dead process's fan-out over adds notifications: how long after `since` it did. */
async function resumedAfter(databaseUrl: string, atKill: number, since: number): Promise<number> {
  await waitFor(async () => (await notifications(databaseUrl)) > atKill, 120_000, 50);
  return Date.now() - since;
}

/** How long after `since` the dead process's registration was taken over (removed) by a live one. */
async function takenOverAfter(databaseUrl: string, pid: number, since: number): Promise<number> {
  await waitFor(async () => {
    const [{ n }] = await queryDatabase<{ n: number }>(databaseUrl, 'SELECT count(*)::int AS n FROM worker_processes WHERE pid = $1', [pid]);
    return n === 0;
  }, 120_000, 50);
  return Date.now() - since;
}

async function messages(databaseUrl: string): Promise<number> {
  const [{ n }] = await queryDatabase<{ n: number }>(databaseUrl, 'SELECT count(*)::int AS n FROM messages WHERE transaction_id = $1', [TX]);
  return n;
}

/** Waits for every delivery and returns how long that took from `since`. */
async function deliveredAfter(databaseUrl: string, since: number): Promise<number> {
  await waitFor(async () => (await messages(databaseUrl)) >= SUBSCRIBERS, 120_000, 100);
  return Date.now() - since;
}

async function expectExactlyOnce(databaseUrl: string): Promise<void> {
  const [counts] = await queryDatabase<{ messages: number; subscribers: number; notifications: number; unfinished: number }>(
    databaseUrl,
    `SELECT (SELECT count(*)::int FROM messages WHERE transaction_id = $1) AS messages,
            (SELECT count(DISTINCT subscriber_id)::int FROM messages WHERE transaction_id = $1) AS subscribers,
            (SELECT count(*)::int FROM notifications WHERE transaction_id = $1) AS notifications,
            (SELECT count(*)::int FROM jobs j JOIN notifications n ON n.id = j.notification_id
              WHERE n.transaction_id = $1 AND j.status <> 'completed') AS unfinished`,
    [TX],
  );
  expect(counts).toEqual({ messages: SUBSCRIBERS, subscribers: SUBSCRIBERS, notifications: SUBSCRIBERS, unfinished: 0 });
}

it('a SIGKILL during a topic fan-out loses and duplicates nothing, and the restarted process takes it over at start', async () => {
  const svc = await startService();
  running.push(svc);
  await seed(svc);
  await triggerAndCatchFanningOut(svc);
  await svc.kill();
  expect(await messages(svc.databaseUrl)).toBeLessThan(SUBSCRIBERS);
  const atKill = await notifications(svc.databaseUrl);

  const restarting = Date.now();
  await svc.restart();
  const up = Date.now();
  // Taken over before the restarted process listens.
  expect(svc.output()).toContain('took over the work of worker processes that died');
  const [resumed, finished] = await Promise.all([resumedAfter(svc.databaseUrl, atKill, up), deliveredAfter(svc.databaseUrl, up)]);
  const started = up - restarting;
  console.info(`crash recovery after a restart: started in ${started} ms, then fan-out resumed after ${resumed} ms, all ${SUBSCRIBERS} delivered after ${finished} ms (${started + finished} ms after the restart)`);
  await expectExactlyOnce(svc.databaseUrl);
  expect(started + resumed).toBeLessThan(RESUMED_WITHIN_MS);
  expect(started + finished).toBeLessThan(FINISHED_WITHIN_MS);
}, 240_000);

it('a SIGKILL of one of two processes during a topic fan-out: the survivor takes it over within 5 s and finishes it exactly once', async () => {
  const first = await startService();
  running.push(first);
  const second = await first.startPeer();
  running.push(second);
  await seed(first);
  const { ownerPid } = await triggerAndCatchFanningOut(first);
  // The process running the fan-out is the one killed, so the survivor has to take it over.
  const [victim, survivor] = ownerPid === second.pid ? [second, first] : [first, second];
  expect(ownerPid).toBe(victim.pid);
  await victim.kill();
  const killed = Date.now();
  const atKill = await notifications(survivor.databaseUrl);
  expect(await messages(survivor.databaseUrl)).toBeLessThan(SUBSCRIBERS);

  const [takenOver, resumed, finished] = await Promise.all([
    takenOverAfter(survivor.databaseUrl, victim.pid, killed),
    resumedAfter(survivor.databaseUrl, atKill, killed),
    deliveredAfter(survivor.databaseUrl, killed),
  ]);
  console.info(`crash recovery by a surviving process: taken over ${takenOver} ms after the kill, fan-out resumed after ${resumed} ms, all ${SUBSCRIBERS} delivered after ${finished} ms`);
  await expectExactlyOnce(survivor.databaseUrl);
  expect(survivor.output()).toContain('took over the work of worker processes that died');
  expect(takenOver).toBeLessThan(TAKEN_OVER_WITHIN_MS);
  expect(resumed).toBeLessThan(RESUMED_WITHIN_MS);
  expect(finished).toBeLessThan(FINISHED_WITHIN_MS);
}, 240_000);
