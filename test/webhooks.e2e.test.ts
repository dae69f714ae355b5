import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { startWebhookReceiver, type ReceivedEvent, type WebhookReceiver } from './support/webhook-receiver';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 45, outbound webhooks: a receiver inside the test verifies every request with the Standard
// Webhooks library. Retries are milliseconds apart here (HERALD_WEBHOOK_RETRY_SCHEDULE_MS); the
// default schedule is the issue's, at once to 10 h.
let svc: TestService;
let novu: Novu;
let receiver: WebhookReceiver;
let endpointId: string;

const env = { HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400,600,800,1000,1000,1000,1000,1000' };
const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const ofType = (type: string) => receiver.accepted.filter((e) => e.type === type);
const arrived = (type: string, where: (e: ReceivedEvent) => boolean = () => true, count = 1) =>
  waitFor(async () => (ofType(type).filter(where).length >= count ? ofType(type).filter(where) : null), 15_000);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService(env);
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  const created = await json(await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: receiver.url, description: 'CRM' } }));
  expect(created.status).toBe(201);
  receiver.secret = created.body.data.secret;
  endpointId = created.body.data.id;
});
afterAll(async () => {
  await svc?.dispose();
  await receiver?.close();
});

describe('outbound webhooks', () => {
  it('manages endpoints with strict validation; the secret is shown once and stored encrypted', async () => {
    const got = await json(await svc.request(`/v1/webhooks/endpoints/${endpointId}`));
    expect(got.body.data).toMatchObject({ id: endpointId, url: receiver.url, description: 'CRM', eventTypes: [], enabled: true });
    expect(got.body.data).not.toHaveProperty('secret');
    const [row] = await queryDatabase<{ secrets: string }>(svc.databaseUrl, 'SELECT secrets FROM webhook_endpoints WHERE id = $1', [endpointId]);
    expect(row.secrets).not.toContain(receiver.secret.slice(6));

    const unknownKey = await json(await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: receiver.url, eventType: ['message.sent'] } }));
    expect(unknownKey.status).toBe(422);
    expect(JSON.stringify(unknownKey.body)).toContain('eventType');
    const badType = await json(await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: receiver.url, eventTypes: ['message.teleported'] } }));
    expect(badType.status).toBe(422);
    expect(JSON.stringify(badType.body)).toContain('eventTypes');
    const badUrl = await json(await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: 'ftp://example.com/x' } }));
    expect(badUrl).toMatchObject({ status: 422, body: { errors: { url: expect.anything() } } });
    expect((await svc.request(`/v1/webhooks/endpoints/${endpointId}`, { method: 'PATCH', json: { enable: true } })).status).toBe(422);
    expect((await svc.request('/v1/webhooks/endpoints/not-an-id')).status).toBe(404);
    expect((await svc.request(`/v1/webhooks/endpoints/${endpointId}/replay`, { method: 'POST', json: { attemptId: 'x', since: 'y' } })).status).toBe(422);
  });

  it('tells every kind of change once, signed, with its payload: subscribers, workflows, messages, inbox state, preferences, completion', async () => {
    await novu.subscribers.create({ subscriberId: 'hook-ada', firstName: 'Ada', email: 'ada@example.com' });
    await novu.subscribers.patch({ lastName: 'Lovelace' }, 'hook-ada');
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'hook-flow', name: 'Hook flow' }, [
      { type: 'in_app', stepId: 'first', controlValues: { body: 'First {{payload.n}}' } },
      { type: 'in_app', stepId: 'second', controlValues: { body: 'Second {{payload.n}}' } },
    ]);
    const { result } = await novu.trigger({ workflowId: 'hook-flow', to: 'hook-ada', payload: { n: 1 }, transactionId: 'tx-hook-1' });
    expect(result.status).toBe('processed');
    const completed = await arrived('notification.completed', (e) => e.data.transactionId === 'tx-hook-1');
    const sent = await arrived('message.sent', (e) => e.data.transactionId === 'tx-hook-1', 2);
    const [message] = await queryDatabase<{ id: string }>(svc.databaseUrl, `SELECT id FROM messages WHERE transaction_id = 'tx-hook-1' ORDER BY created_at LIMIT 1`);
    await novu.subscribers.notifications.markAsSeen({ notificationIds: [message.id] }, 'hook-ada');
    await novu.subscribers.notifications.markAsRead({ subscriberId: 'hook-ada', notificationId: message.id });
    expect((await svc.request(`/v2/subscribers/hook-ada/notifications/${message.id}/archive`, { method: 'PATCH' })).status).toBe(200);
    await novu.subscribers.preferences.update({ channels: { inApp: false } }, 'hook-ada');
    await novu.subscribers.delete('hook-ada');

    for (const type of ['message.seen', 'message.read', 'message.archived']) {
      expect((await arrived(type, (e) => e.data.messageId === message.id))[0].data).toMatchObject({ subscriberId: 'hook-ada', workflowId: 'hook-flow', channel: 'in_app' });
    }
    expect((await arrived('preference.updated', (e) => e.data.subscriberId === 'hook-ada'))[0].data).toMatchObject({ channels: { in_app: false } });
    expect((await arrived('subscriber.created', (e) => e.data.subscriberId === 'hook-ada'))[0].data).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
    expect((await arrived('subscriber.updated', (e) => e.data.subscriberId === 'hook-ada'))[0].data).toMatchObject({ lastName: 'Lovelace' });
    await arrived('subscriber.deleted', (e) => e.data.subscriberId === 'hook-ada');
    await arrived('workflow.created', (e) => e.data.workflowId === 'hook-flow');
    expect(sent.map((e) => e.data.workflowId)).toEqual(['hook-flow', 'hook-flow']);
    expect(completed[0].data).toMatchObject({ status: 'completed', subscriberId: 'hook-ada', workflowId: 'hook-flow' });
    // Once per change: no id twice, every request verified, and a notification's events in order.
    const ids = receiver.accepted.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
    const ofNotification = receiver.accepted.filter((e) => e.data.notificationId === completed[0].data.notificationId).map((e) => e.type);
    expect(ofNotification).toEqual(['message.sent', 'message.sent', 'notification.completed', 'message.seen', 'message.read', 'message.archived']);
  });

  it('tells a workflow created, updated and deleted through the API once each, in order, with its payload', async () => {
    const inApp = { type: 'in_app' as const, name: 'Bell', controlValues: { body: 'Hi' } };
    await novu.workflows.create({ name: 'Api flow', workflowId: 'hook-api-flow', tags: ['crm'], steps: [inApp] });
    await novu.workflows.update({ name: 'Api flow v2', preferences: {}, steps: [{ ...inApp, stepId: 'bell' }] }, 'hook-api-flow');
    expect((await svc.request('/v2/workflows/hook-api-flow', { method: 'DELETE' })).status).toBe(204);
    await arrived('workflow.deleted', (e) => e.data.workflowId === 'hook-api-flow');
    const mine = receiver.accepted.filter((e) => e.type.startsWith('workflow.') && e.data.workflowId === 'hook-api-flow');
    expect(mine.map((e) => e.type)).toEqual(['workflow.created', 'workflow.updated', 'workflow.deleted']);
    expect(mine[0].data).toMatchObject({ name: 'Api flow', tags: ['crm'] });
    expect(mine[1].data).toMatchObject({ name: 'Api flow v2', workflowId: 'hook-api-flow' });
  });

  it('a receiver down for a while gets everything afterwards, in order per notification, each id once; attempts are logged and replayable', async () => {
    await novu.subscribers.create({ subscriberId: 'hook-bob' });
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'hook-three', name: 'Three' }, ['a', 'b', 'c'].map((stepId) => ({ type: 'in_app', stepId, controlValues: { body: stepId } })));
    receiver.down = true;
    for (const n of [1, 2, 3]) await novu.trigger({ workflowId: 'hook-three', to: 'hook-bob', payload: { n }, transactionId: `tx-down-${n}` });
    await waitFor(async () => receiver.requests.filter((r) => r.status === 500).length >= 6, 15_000);
    receiver.down = false;
    const done = await waitFor(async () => (ofType('notification.completed').filter((e) => e.data.transactionId?.startsWith('tx-down-')).length === 3 ? true : null), 30_000);
    expect(done).toBe(true);
    for (const n of [1, 2, 3]) {
      const types = receiver.accepted.filter((e) => e.data.transactionId === `tx-down-${n}`).map((e) => e.type);
      expect(types).toEqual(['message.sent', 'message.sent', 'message.sent', 'notification.completed']);
    }
    const ids = receiver.accepted.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    const log = await json(await svc.request(`/v1/webhooks/endpoints/${endpointId}/attempts?limit=100`));
    expect(log.status).toBe(200);
    const failed = log.body.data.find((a: any) => a.responseStatus === 500);
    expect(failed).toMatchObject({ succeeded: false, responseBody: 'receiver down for maintenance', durationMs: expect.any(Number), error: expect.stringContaining('500') });
    const retried = log.body.data.filter((a: any) => a.deliveryId === failed.deliveryId).map((a: any) => [a.attempt, a.succeeded]);
    expect(retried.at(0)).toEqual([retried.length, true]);

    const replayed = await json(await svc.request(`/v1/webhooks/endpoints/${endpointId}/replay`, { method: 'POST', json: { attemptId: failed.id } }));
    expect(replayed).toMatchObject({ status: 202, body: { data: { queued: 1 } } });
    await waitFor(async () => receiver.accepted.filter((e) => e.id === `msg_${failed.eventId}`).length === 2, 10_000);
  });

  it('loses nothing to a SIGKILL between the change and its delivery', async () => {
    receiver.down = true;
    await novu.subscribers.create({ subscriberId: 'hook-crash' });
    await waitFor(async () => receiver.requests.length > 0 && (await queryDatabase(svc.databaseUrl, `SELECT 1 FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id WHERE e.data->>'subscriberId' = 'hook-crash'`)).length > 0, 10_000);
    await svc.kill();
    receiver.down = false;
    await svc.restart();
    const [event] = await arrived('subscriber.created', (e) => e.data.subscriberId === 'hook-crash');
    expect(receiver.accepted.filter((e) => e.id === event.id)).toHaveLength(1);
  });
});
