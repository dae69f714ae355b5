import { Novu } from '@novu/api';
import type { ActivityNotificationResponseDto } from '@novu/api/models/components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

let svc: TestService;
let novu: Novu;
let orderShippedId: string;
let alertId: string;
let bobSubscriptionId: string;
let all: ActivityNotificationResponseDto[];

const IN_APP = {
  type: 'in_app',
  stepId: 'in-app',
  controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'Order {{payload.orderId}} shipped', primaryAction: { label: 'Open', redirect: { url: 'https://example.com/o' } } },
};
const EMAIL = { type: 'email', stepId: 'email', controlValues: { subject: 'Alert', body: 'Alert {{payload.orderId}}' } };
const ACTIVE = ['pending', 'queued', 'running', 'delayed'];

/** Every job of the transaction has finished (delivery is asynchronous; a fan-out's inline in-app step has no job row). */
async function settled(transactionId: string, notifications: number) {
  await waitFor(async () => {
    const rows = await queryDatabase<{ notifications: number; active: number }>(
      svc.databaseUrl,
      `SELECT count(DISTINCT n.id)::int AS notifications, count(*) FILTER (WHERE j.status = ANY($2))::int AS active
       FROM notifications n LEFT JOIN jobs j ON j.notification_id = n.id WHERE n.transaction_id = $1`,
      [transactionId, ACTIVE],
    );
    return rows[0].notifications === notifications && rows[0].active === 0;
  }, 5_000);
}

async function trigger(request: Parameters<Novu['trigger']>[0], notifications: number) {
  const { result } = await novu.trigger(request);
  expect(result.status).toBe('processed');
  await settled(request.transactionId!, notifications);
}

/** transactionId/subscriberId of each notification, in the order listed. */
const keys = (data: ActivityNotificationResponseDto[]) => data.map((n) => `${n.transactionId}/${n.subscriber?.subscriberId}`);
const list = async (request: Parameters<Novu['notifications']['list']>[0]) => keys((await novu.notifications.list(request)).result.data);

beforeAll(async () => {
  // `svc` in the interface's provider ids is this SDK's `novu`: the SDK checks provider ids against its list.
  svc = await startService({ SERVICE_NAME: 'novu' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.subscribers.createBulk({
    subscribers: [
      { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' },
      { subscriberId: 'bob', firstName: 'Bob', email: 'bob@example.com', phone: '+15550001' },
      { subscriberId: 'cy' },
    ],
  });
  orderShippedId = await insertWorkflowWithSteps(
    svc.databaseUrl,
    { workflowId: 'order-shipped', name: 'Order shipped', payloadSchema: { type: 'object', properties: { orderId: { type: 'string' } } } },
    [IN_APP],
  );
  alertId = await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'security-alert', name: 'Security alert' }, [IN_APP, EMAIL]);
  await queryDatabase(svc.databaseUrl, `UPDATE workflows SET severity = 'high' WHERE id = $1`, [alertId]);
  const subscribed = await novu.topics.subscriptions.create({ subscriptions: ['cy', 'bob'] }, 'vip');
  bobSubscriptionId = subscribed.result.data.find((s) => s.subscriber?.subscriberId === 'bob')!.id;

  await trigger({ workflowId: 'order-shipped', to: 'ada', payload: { orderId: 'A-1' }, transactionId: 'tx-1' }, 1);
  await trigger({ workflowId: 'order-shipped', to: ['bob'], payload: { orderId: 'B-1' }, transactionId: 'tx-2' }, 1);
  await trigger(
    { workflowId: 'security-alert', to: 'ada', payload: { orderId: 'S-1' }, transactionId: 'tx-3', context: { tenant: 'acme', app: 'web' } },
    1,
  );
  await trigger({ workflowId: 'order-shipped', to: [{ type: 'Topic', topicKey: 'vip' }], payload: { orderId: 'V-1' }, transactionId: 'tx-4' }, 2);
  all = (await novu.notifications.list({ limit: 50 })).result.data;
});
afterAll(() => svc?.dispose());

describe('the activity log through the @novu/api SDK', () => {
  it('lists one notification per trigger and recipient, newest first', async () => {
    expect(keys(all)).toHaveLength(5);
    expect(keys(all).slice(2)).toEqual(['tx-3/ada', 'tx-2/bob', 'tx-1/ada']);
    expect(new Set(keys(all).slice(0, 2))).toEqual(new Set(['tx-4/cy', 'tx-4/bob']));
    const first = all.find((n) => n.transactionId === 'tx-1')!;
    expect(first).toMatchObject({
      templateId: orderShippedId,
      channels: ['in_app'],
      severity: 'none',
      critical: false,
      payload: { orderId: 'A-1' },
      subscriber: { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' },
      template: { id: orderShippedId, name: 'Order shipped', triggers: [{ type: 'event', identifier: 'order-shipped', variables: [{ name: 'orderId' }] }] },
    });
    // A topic's recipients share their trigger's one stored payload (the event's), and each shows
    // the topic it was reached through (kept as the notification's topic columns).
    const [vip] = await queryDatabase<{ id: string }>(svc.databaseUrl, "SELECT id FROM topics WHERE key = 'vip'");
    for (const n of all.filter((n) => n.transactionId === 'tx-4')) {
      expect(n.payload).toEqual({ orderId: 'V-1' });
      expect(n.to).toEqual({ type: 'Topic', topicKey: 'vip' });
      expect(n.topics).toEqual([{ topicId: vip.id, topicKey: 'vip' }]);
    }
    expect(first.to).toEqual({ subscriberId: 'ada' });
    expect(first.topics ?? []).toEqual([]);
  });

  it('filters by channels, templates, subscribers, emails, severity and transactionId', async () => {
    expect(await list({ channels: ['email'] })).toEqual(['tx-3/ada']);
    expect(await list({ templates: [alertId] })).toEqual(['tx-3/ada']);
    expect(await list({ templates: ['security-alert', orderShippedId] })).toHaveLength(5);
    expect(await list({ subscriberIds: ['ada'] })).toEqual(['tx-3/ada', 'tx-1/ada']);
    expect(await list({ emails: ['bob@example.com'] })).toEqual(['tx-4/bob', 'tx-2/bob']);
    expect(await list({ severity: ['high'] })).toEqual(['tx-3/ada']);
    expect(await list({ transactionId: 'tx-2' })).toEqual(['tx-2/bob']);
    expect(await list({ subscriberIds: ['ada'], channels: ['email'], transactionId: 'tx-1' })).toEqual([]);
    expect(await list({ search: 'tx-1' })).toEqual(['tx-1/ada']);
    expect(await list({ search: 'bob@example.com' })).toEqual(['tx-4/bob', 'tx-2/bob']);
  });

  it('filters by topic, subscription and exact context keys in any order', async () => {
    expect(new Set(await list({ topicKey: 'vip' }))).toEqual(new Set(['tx-4/cy', 'tx-4/bob']));
    expect(await list({ subscriptionId: bobSubscriptionId })).toEqual(['tx-4/bob']);
    expect(await list({ topicKey: 'nobody' })).toEqual([]);
    expect(await list({ contextKeys: ['tenant:acme', 'app:web'] })).toEqual(['tx-3/ada']);
    expect(await list({ contextKeys: ['app:web', 'tenant:acme'] })).toEqual(['tx-3/ada']);
    expect(await list({ contextKeys: ['tenant:acme'] })).toEqual([]);
    const alert = all.find((n) => n.transactionId === 'tx-3')!;
    expect(alert.contextKeys).toEqual(['app:web', 'tenant:acme']);
  });

  it('pages with page and limit and says whether more exist', async () => {
    const first = await novu.notifications.list({ limit: 2 });
    expect(first.result).toMatchObject({ page: 0, pageSize: 2, hasMore: true });
    expect(keys(first.result.data)).toEqual(keys(all).slice(0, 2));
    const last = await novu.notifications.list({ limit: 2, page: 2 });
    expect(last.result).toMatchObject({ page: 2, pageSize: 2, hasMore: false });
    expect(keys(last.result.data)).toEqual(['tx-1/ada']);
    const exact = await novu.notifications.list({ limit: 5 });
    expect(exact.result.hasMore).toBe(false);
    expect((await novu.notifications.list({})).result.pageSize).toBe(10);
    await expect(novu.notifications.list({ limit: 51 })).rejects.toMatchObject({ statusCode: 422 });
    await expect(novu.notifications.list({ page: -1 })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('filters by creation time with after and before', async () => {
    const second = all.find((n) => n.transactionId === 'tx-2')!;
    expect(await list({ before: second.createdAt })).toEqual(['tx-2/bob', 'tx-1/ada']);
    const since = await list({ after: second.createdAt });
    expect(since).toHaveLength(4);
    expect(since).not.toContain('tx-1/ada');
    expect(await list({ after: second.createdAt, before: second.createdAt })).toEqual(['tx-2/bob']);
    await expect(novu.notifications.list({ after: 'yesterday' })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('retrieves a notification with its jobs in step order, execution details and messages', async () => {
    const alert = all.find((n) => n.transactionId === 'tx-3')!;
    const { result } = await novu.notifications.retrieve(alert.id!);
    expect(result.id).toBe(alert.id);
    expect(result.jobs?.map((j) => j.type)).toEqual(['in_app', 'email']);
    const [inApp] = result.jobs!;
    expect(inApp).toMatchObject({ status: 'completed', providerId: 'novu', step: { active: true, filters: [] } });
    expect(inApp.executionDetails).toEqual([
      expect.objectContaining({ status: 'Success', source: 'Internal', isRetry: false, isTest: false, detail: 'in-app message stored in the inbox of ada' }),
    ]);
    // The message each step produced rides along with its job.
    // (The SDK's job model keeps no payload keys, so those two are read raw.)
    const raw = (await (await svc.request(`/v1/notifications/${alert.id}`)).json()) as {
      data: { jobs: Array<{ payload: unknown; message?: Record<string, unknown> }> };
    };
    expect(raw.data.jobs[0].payload).toEqual({ orderId: 'S-1' });
    expect(raw.data.jobs[0].message).toMatchObject({ channel: 'in_app', destination: { subscriberId: 'ada' }, subject: 'Hi Ada', body: 'Order S-1 shipped', status: 'sent' });
    expect(result.jobs![1].executionDetails.length).toBeGreaterThan(0);
  });

  it("shows a direct trigger's first in-app step, run with the trigger for an existing subscriber, like any other job", async () => {
    // tx-3: ada existed before the trigger, so its in-app step ran within the acceptance and has no job row.
    const jobRows = await queryDatabase<{ type: string }>(
      svc.databaseUrl,
      `SELECT j.type FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = 'tx-3'`,
    );
    expect(jobRows.map((j) => j.type)).toEqual(['email']);
    const alert = all.find((n) => n.transactionId === 'tx-3')!;
    const { result } = await novu.notifications.retrieve(alert.id!);
    expect(result.jobs?.map((j) => [j.type, j.status])).toEqual([['in_app', 'completed'], ['email', expect.not.stringMatching(/pending|queued/)]]);
    const [message] = await queryDatabase<{ body: string; job_id: string; destination: unknown }>(
      svc.databaseUrl,
      `SELECT m.body, m.job_id, m.destination FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.transaction_id = 'tx-3' AND m.channel = 'in_app'`,
    );
    // Its destination, the subscriber's inbox, is not stored: the activity log derives it (see above).
    expect(message).toEqual({ body: 'Order S-1 shipped', job_id: result.jobs![0].id, destination: null });
  });

  it("shows a topic fan-out's first in-app step, run within the fan-out without a job row, like any other job", async () => {
    // cy turned in-app off: the inline step is skipped for cy, and the next step still runs for both.
    await novu.subscribers.preferences.update({ channels: { inApp: false } }, 'cy');
    await trigger({ workflowId: 'security-alert', to: [{ type: 'Topic', topicKey: 'vip' }], payload: { orderId: 'V-2' }, transactionId: 'tx-5' }, 2);
    const jobRows = await queryDatabase<{ type: string; status: string }>(
      svc.databaseUrl,
      `SELECT j.type, j.status FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = 'tx-5' ORDER BY j.type`,
    );
    expect(jobRows.map((j) => j.type)).toEqual(['email', 'email']);

    const listed = (await novu.notifications.list({ transactionId: 'tx-5' })).result.data;
    const bob = listed.find((n) => n.subscriber?.subscriberId === 'bob')!;
    const cy = listed.find((n) => n.subscriber?.subscriberId === 'cy')!;
    const { result } = await novu.notifications.retrieve(bob.id!);
    expect(result.jobs?.map((j) => j.type)).toEqual(['in_app', 'email']);
    const [inApp, email] = result.jobs!;
    expect(inApp).toMatchObject({ status: 'completed', providerId: 'novu', step: { active: true, filters: [] } });
    expect(inApp.executionDetails).toEqual([
      expect.objectContaining({ status: 'Success', source: 'Internal', isRetry: false, isTest: false, detail: 'in-app message stored in the inbox of bob' }),
    ]);
    expect(email.status).not.toBe('pending');
    expect(email.executionDetails.length).toBeGreaterThan(0);
    // Ids are stable from read to read, and the message rides along as for any job.
    const again = (await novu.notifications.retrieve(bob.id!)).result;
    expect(again.jobs![0].id).toBe(inApp.id);
    expect(again.jobs![0].executionDetails[0].id).toBe(inApp.executionDetails[0].id);
    const raw = (await (await svc.request(`/v1/notifications/${bob.id}`)).json()) as {
      data: { jobs: Array<{ step: Record<string, unknown>; message?: Record<string, unknown> }> };
    };
    expect(raw.data.jobs[0].step).toMatchObject({ stepId: 'in-app', name: 'in-app' });
    expect(raw.data.jobs[0].message).toMatchObject({ channel: 'in_app', subject: 'Hi Bob', body: 'Order V-2 shipped', status: 'sent' });

    const skipped = (await novu.notifications.retrieve(cy.id!)).result.jobs!;
    expect(skipped.map((j) => [j.type, j.status])).toEqual([['in_app', 'skipped'], ['email', expect.not.stringMatching(/pending|queued/)]]);
    expect(skipped[0].executionDetails[0].detail).toBe('skipped: preference in_app disabled by subscriber (global)');
  });

  it("finds a topic's notifications by channel, topic and subscription, also once the subscription is deleted", async () => {
    const { result } = await novu.topics.subscriptions.create({ subscriptions: [{ identifier: 'ada-gone', subscriberId: 'ada' }] }, 'gone');
    const subscriptionId = result.data[0].id;
    await trigger({ workflowId: 'order-shipped', to: [{ type: 'Topic', topicKey: 'gone' }], payload: { orderId: 'G-1' }, transactionId: 'tx-6' }, 1);
    expect(await list({ topicKey: 'gone', channels: ['in_app'] })).toEqual(['tx-6/ada']);
    expect(await list({ topicKey: 'gone', channels: ['email'] })).toEqual([]);
    expect(await list({ subscriptionId: 'ada-gone' })).toEqual(['tx-6/ada']);
    expect(await list({ subscriptionId, channels: ['in_app'] })).toEqual(['tx-6/ada']);
    // bob's subscription to 'vip' is not ada's: the subscriber found first does not widen the match.
    expect(await list({ subscriptionId: bobSubscriptionId, subscriberIds: ['ada'] })).toEqual([]);

    await novu.topics.subscriptions.delete({ subscriptions: [{ identifier: 'ada-gone' }] }, 'gone');
    expect(await list({ subscriptionId })).toEqual(['tx-6/ada']);
    expect(await list({ topicKey: 'gone' })).toEqual(['tx-6/ada']);
  });

  it('filters by the statuses of the steps, a Herald extension (an unknown status is a 422 naming it)', async () => {
    const statuses = async (query: string) => {
      const res = await svc.request(`/v1/notifications?limit=50&${query}`);
      return { status: res.status, body: (await res.json()) as { data?: ActivityNotificationResponseDto[]; errors?: object } };
    };
    const completed = await statuses('status=completed');
    expect(keys(completed.body.data!)).toEqual(expect.arrayContaining(['tx-1/ada', 'tx-2/bob', 'tx-4/bob']));
    expect(completed.body.data!.every((n) => n.jobs!.some((j) => j.status === 'completed'))).toBe(true);
    expect(keys((await statuses('status=merged&status=canceled')).body.data!)).toEqual([]);
    const wrong = await statuses('status=sent');
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors!)).toEqual(['status.0']);
  });

  it("answers a notification's trigger with its topic fan-out's progress: recipients expanded of total", async () => {
    const progress = async (id: string) => (await (await svc.request(`/v1/notifications/${id}/trigger`)).json()).data;
    const viaTopic = all.find((n) => n.transactionId === 'tx-4')!;
    expect(await progress(viaTopic.id!)).toMatchObject({ transactionId: 'tx-4', topicKeys: ['vip'], status: 'fanned_out', recipients: 2, total: 2, fannedOutAt: expect.any(String) });
    const direct = all.find((n) => n.transactionId === 'tx-1')!;
    expect(await progress(direct.id!)).toMatchObject({ transactionId: 'tx-1', topicKeys: [], status: 'fanned_out', recipients: 1, total: 1 });
    const unknown = await svc.request('/v1/notifications/00000000-0000-4000-8000-000000000000/trigger');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('NOTIFICATION_NOT_FOUND');
  });

  it('answers 404 naming an unknown or malformed notification id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      await expect(novu.notifications.retrieve(id)).rejects.toMatchObject({ statusCode: 404, message: expect.stringContaining(id) });
    }
  });
});
