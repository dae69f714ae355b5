import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 6 acceptance: SIGKILL while a topic fan-out runs, start again, and every subscriber ends
// with exactly one inbox notification for that trigger.
const SUBSCRIBERS = 20_000;
let svc: TestService;

beforeAll(async () => {
  svc = await startService();
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
}, 120_000);
afterAll(() => svc?.dispose());

it('a SIGKILL during a topic fan-out loses nothing and duplicates nothing', async () => {
  const res = await svc.request('/v1/events/trigger', {
    method: 'POST',
    json: { name: 'broadcast', to: { type: 'Topic', topicKey: 'everyone' }, transactionId: 'tx-crash' },
  });
  expect((await res.json()).data.status).toBe('processed');

  // Kill as soon as delivery has visibly started but the fan-out has not finished.
  const statusAtKill = await waitFor(async () => {
    const [row] = await queryDatabase<{ status: string; delivered: number }>(
      svc.databaseUrl,
      `SELECT e.status, (SELECT count(*)::int FROM notifications n WHERE n.event_id = e.id) AS delivered FROM events e WHERE e.transaction_id = 'tx-crash'`,
    );
    return row && row.delivered > 0 ? row.status : null;
  }, 30_000, 5);
  await svc.kill();
  expect(statusAtKill).toBe('fanning_out');
  const [{ n: atKill }] = await queryDatabase<{ n: number }>(svc.databaseUrl, "SELECT count(*)::int AS n FROM messages WHERE transaction_id = 'tx-crash'");
  expect(atKill).toBeLessThan(SUBSCRIBERS);

  await svc.restart();
  await waitFor(async () => {
    const [{ n }] = await queryDatabase<{ n: number }>(svc.databaseUrl, "SELECT count(*)::int AS n FROM messages WHERE transaction_id = 'tx-crash'");
    return n >= SUBSCRIBERS;
  }, 150_000, 500);
  const [counts] = await queryDatabase<{ messages: number; subscribers: number; notifications: number; unfinished: number }>(
    svc.databaseUrl,
    `SELECT (SELECT count(*)::int FROM messages WHERE transaction_id = 'tx-crash') AS messages,
            (SELECT count(DISTINCT subscriber_id)::int FROM messages WHERE transaction_id = 'tx-crash') AS subscribers,
            (SELECT count(*)::int FROM notifications WHERE transaction_id = 'tx-crash') AS notifications,
            (SELECT count(*)::int FROM jobs j JOIN notifications n ON n.id = j.notification_id
              WHERE n.transaction_id = 'tx-crash' AND j.status <> 'completed') AS unfinished`,
  );
  expect(counts).toEqual({ messages: SUBSCRIBERS, subscribers: SUBSCRIBERS, notifications: SUBSCRIBERS, unfinished: 0 });
}, 240_000);
