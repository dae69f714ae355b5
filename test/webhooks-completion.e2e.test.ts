import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { startWebhookReceiver, type ReceivedEvent, type WebhookReceiver } from './support/webhook-receiver';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 45: notification.completed once per notification, however its steps ran. An in-app-only
// workflow's step runs inline in the trigger's own statement (and in a topic fan-out's chunk): no
// queued job ever completes those notifications, so the statement that writes them does. The
// receiver verifies every request with the Standard Webhooks library.
let svc: TestService;
let novu: Novu;
let receiver: WebhookReceiver;

const completionsOf = (transactionId: string) => receiver.accepted.filter((e) => e.type === 'notification.completed' && e.data.transactionId === transactionId);
const typesOf = (notificationId: string) => receiver.accepted.filter((e) => e.data.notificationId === notificationId).map((e) => e.type);
const notificationsOf = (transactionId: string) =>
  queryDatabase<{ id: string; subscriber_id: string; inline: boolean }>(
    svc.databaseUrl,
    `SELECT n.id, s.subscriber_id, n.inline_job_id IS NOT NULL AS inline FROM notifications n JOIN subscribers s ON s.id = n.subscriber_id
     WHERE n.transaction_id = $1 ORDER BY s.subscriber_id`,
    [transactionId],
  );
/** Waits for `count` completions of the trigger, then long enough for a duplicate to have arrived too. */
async function completed(transactionId: string, count: number): Promise<ReceivedEvent[]> {
  await waitFor(async () => (completionsOf(transactionId).length >= count ? true : null), 15_000);
  await new Promise((r) => setTimeout(r, 1_500));
  return completionsOf(transactionId);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  const created = await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: receiver.url, eventTypes: ['message.sent', 'workflow_step.failed', 'notification.completed'] } });
  expect(created.status).toBe(201);
  receiver.secret = (await created.json()).data.secret;
  await novu.subscribers.createBulk({ subscribers: ['ada', 'bob', 'cy'].map((subscriberId) => ({ subscriberId })) });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'inbox-only', name: 'Inbox only' }, [{ type: 'in_app', stepId: 'note', controlValues: { body: 'Note {{payload.n}}' } }]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'inbox-twice', name: 'Inbox twice' }, [
    { type: 'in_app', stepId: 'first', controlValues: { body: 'First' } },
    { type: 'in_app', stepId: 'second', controlValues: { body: 'Second' } },
  ]);
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await receiver?.close();
});

describe('notification.completed', () => {
  it('is sent once for a workflow whose only step ran inline with the trigger, after its message, with its payload', async () => {
    const { result } = await novu.trigger({ workflowId: 'inbox-only', to: ['ada', 'bob'], payload: { n: 1 }, transactionId: 'tx-inline' });
    expect(result.status).toBe('processed');
    const events = await completed('tx-inline', 2);
    const notifications = await notificationsOf('tx-inline');
    expect(notifications.map((n) => [n.subscriber_id, n.inline])).toEqual([['ada', true], ['bob', true]]);
    expect(events).toHaveLength(2);
    for (const n of notifications) {
      const [event] = events.filter((e) => e.data.notificationId === n.id);
      expect(event.data).toEqual({ notificationId: n.id, transactionId: 'tx-inline', subscriberId: n.subscriber_id, workflowId: 'inbox-only', status: 'completed' });
      expect(typesOf(n.id)).toEqual(['message.sent', 'notification.completed']);
    }
  });

  it('says failed when a step run inline failed, after its workflow_step.failed, whether or not steps followed it', async () => {
    const broken = { type: 'in_app' as const, stepId: 'note', controlValues: { body: '{% if %}' } };
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'inbox-broken', name: 'Inbox broken' }, [broken]);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'broken-then-fine', name: 'Broken then fine' }, [
      broken,
      { type: 'in_app', stepId: 'fine', controlValues: { body: 'Fine' } },
    ]);
    await novu.trigger({ workflowId: 'inbox-broken', to: 'ada', transactionId: 'tx-broken' });
    await novu.trigger({ workflowId: 'broken-then-fine', to: 'bob', transactionId: 'tx-broken-then-fine' });
    for (const [transactionId, subscriberId, workflowId, after] of [
      ['tx-broken', 'ada', 'inbox-broken', []],
      ['tx-broken-then-fine', 'bob', 'broken-then-fine', ['message.sent']],
    ] as const) {
      const events = await completed(transactionId, 1);
      const [n] = await notificationsOf(transactionId);
      expect(n.inline).toBe(true);
      expect(events.map((e) => e.data)).toEqual([{ notificationId: n.id, transactionId, subscriberId, workflowId, status: 'failed' }]);
      expect(typesOf(n.id)).toEqual(['workflow_step.failed', ...after, 'notification.completed']);
      const [failed] = receiver.accepted.filter((e) => e.type === 'workflow_step.failed' && e.data.notificationId === n.id);
      expect(failed.data).toMatchObject({ subscriberId, workflowId, stepId: 'note', stepType: 'in_app', jobId: expect.any(String), error: expect.stringContaining('Could not render body') });
    }
  });

  it('is sent once per recipient of a topic fan-out whose step ran inline in each chunk', async () => {
    await novu.topics.subscriptions.create({ subscriptions: ['ada', 'bob', 'cy'] }, 'crew');
    await novu.trigger({ workflowId: 'inbox-only', to: [{ type: 'Topic', topicKey: 'crew' }], payload: { n: 2 }, transactionId: 'tx-topic' });
    const events = await completed('tx-topic', 3);
    const notifications = await notificationsOf('tx-topic');
    expect(notifications.every((n) => n.inline)).toBe(true);
    expect(events.map((e) => e.data.subscriberId).sort()).toEqual(['ada', 'bob', 'cy']);
    expect(events.map((e) => e.data.notificationId).sort()).toEqual(notifications.map((n) => n.id).sort());
    expect(events.every((e) => e.data.workflowId === 'inbox-only' && e.data.status === 'completed')).toBe(true);
  });

  it('is still sent once for a workflow whose later step was queued, by the job that ran it', async () => {
    await novu.trigger({ workflowId: 'inbox-twice', to: 'cy', transactionId: 'tx-queued' });
    const events = await completed('tx-queued', 1);
    const [n] = await notificationsOf('tx-queued');
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({ notificationId: n.id, transactionId: 'tx-queued', subscriberId: 'cy', workflowId: 'inbox-twice', status: 'completed' });
    expect(typesOf(n.id)).toEqual(['message.sent', 'message.sent', 'notification.completed']);
    // Every request verified, no event id twice.
    const ids = receiver.accepted.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
  });
});
