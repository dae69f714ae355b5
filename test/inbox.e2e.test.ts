import { Novu } from '@novu/api';
import type { InboxNotificationDto } from '@novu/api/models/components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

let svc: TestService;
let novu: Novu;

const IN_APP = {
  type: 'in_app',
  stepId: 'in-app',
  controlValues: {
    subject: 'Hi {{subscriber.firstName}}',
    body: 'Order {{payload.orderId}} shipped',
    primaryAction: { label: 'Open', redirect: { url: 'https://example.com/o' } },
  },
};

/** Triggers order-shipped and waits for the recipient's inbox row (delivery is asynchronous). */
async function deliver(to: string, orderId: string, context?: Record<string, string>): Promise<string> {
  const transactionId = `tx-${to}-${orderId}`;
  const { result } = await novu.trigger({ workflowId: 'order-shipped', to, payload: { orderId }, transactionId, ...(context ? { context } : {}) });
  expect(result.status).toBe('processed');
  const [row] = await waitFor(async () => {
    const rows = await queryDatabase<{ id: string }>(svc.databaseUrl, `SELECT id FROM messages WHERE transaction_id = $1 AND channel = 'in_app'`, [transactionId]);
    return rows.length ? rows : null;
  }, 5_000);
  return row.id;
}

const bodies = (data: InboxNotificationDto[]) => data.map((n) => n.body);
const list = async (request: Omit<Parameters<Novu['subscribers']['notifications']['list']>[0], 'subscriberId'>, subscriberId = 'ada') =>
  (await novu.subscribers.notifications.list({ subscriberId, ...request })).result;
const counts = async (filters: object[], subscriberId = 'ada') =>
  (await novu.subscribers.notifications.count(subscriberId, JSON.stringify(filters))).result.map((r) => r.count);

let first: string;
let second: string;
let third: string;
let bobs: string;

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.subscribers.createBulk({ subscribers: [{ subscriberId: 'ada', firstName: 'Ada', avatar: 'https://example.com/ada.png' }, { subscriberId: 'bob' }] });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'order-shipped', name: 'Order shipped', tags: ['orders'] }, [IN_APP]);
  first = await deliver('ada', '1');
  second = await deliver('ada', '2');
  third = await deliver('ada', '3', { tenant: 'acme', app: 'web' });
  bobs = await deliver('bob', '9');
});
afterAll(() => svc?.dispose());

describe('the inbox through the @novu/api SDK', () => {
  it('lists a subscriber’s notifications newest first, with cursor pages and filters', async () => {
    const all = await list({});
    expect(bodies(all.data)).toEqual(['Order 3 shipped', 'Order 2 shipped', 'Order 1 shipped']);
    expect(all.hasMore).toBe(false);
    expect(all.data[2]).toMatchObject({
      id: first,
      transactionId: 'tx-ada-1',
      subject: 'Hi Ada',
      to: { subscriberId: 'ada', firstName: 'Ada', avatar: 'https://example.com/ada.png' },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      severity: 'none',
      tags: ['orders'],
      primaryAction: { label: 'Open', isCompleted: false, redirect: { url: 'https://example.com/o' } },
      workflow: { identifier: 'order-shipped', name: 'Order shipped', critical: false, severity: 'none' },
    });
    expect(all.data[2].secondaryAction).toBeUndefined();
    expect(all.data[2].deliveredAt).toHaveLength(1);

    const page = await list({ limit: 2 });
    expect(page.hasMore).toBe(true);
    const rest = await list({ limit: 2, after: page.data[1].id });
    expect(rest).toMatchObject({ hasMore: false });
    expect(bodies(rest.data)).toEqual(['Order 1 shipped']);
    expect(bodies((await list({ offset: 1, limit: 1 })).data)).toEqual(['Order 2 shipped']);
    expect(bodies((await list({ contextKeys: ['tenant:acme', 'app:web'] })).data)).toEqual(['Order 3 shipped']);
    expect((await list({ contextKeys: ['tenant:acme'] })).data).toEqual([]);
    expect(bodies((await list({ data: JSON.stringify({ nothing: 'here' }) })).data)).toEqual([]);
    expect(bodies((await list({}, 'bob')).data)).toEqual(['Order 9 shipped']);
  });

  it('marks read and unread, seen and archived, and counts by filter', async () => {
    const read = (await novu.subscribers.notifications.markAsRead({ subscriberId: 'ada', notificationId: first })).result;
    expect(read).toMatchObject({ id: first, isRead: true, isSeen: true });
    expect(read.readAt).toEqual(expect.any(String));
    expect(read.firstSeenAt).toEqual(expect.any(String));
    expect(bodies((await list({ read: true })).data)).toEqual(['Order 1 shipped']);
    expect(await counts([{ read: false }, { read: true }, { seen: false }, { tags: ['orders'] }])).toEqual([2, 1, 2, 3]);

    const unread = (await novu.subscribers.notifications.markAsUnread({ subscriberId: 'ada', notificationId: first })).result;
    expect(unread).toMatchObject({ isRead: false, readAt: null, isSeen: true, firstSeenAt: read.firstSeenAt });

    await novu.subscribers.notifications.markAsSeen({ notificationIds: [first, second] }, 'ada');
    const seen = await list({ seen: true });
    expect(bodies(seen.data)).toEqual(['Order 2 shipped', 'Order 1 shipped']);
    // firstSeenAt is set once: seeing it again keeps the first time.
    expect(seen.data[1].firstSeenAt).toBe(read.firstSeenAt);

    const archived = (await novu.subscribers.notifications.archive({ subscriberId: 'ada', notificationId: second })).result;
    expect(archived).toMatchObject({ isArchived: true, isRead: true });
    expect(archived.archivedAt).toEqual(expect.any(String));
    expect(bodies((await list({ archived: true })).data)).toEqual(['Order 2 shipped']);
    expect(bodies((await list({ archived: false })).data)).toEqual(['Order 3 shipped', 'Order 1 shipped']);
    const back = (await novu.subscribers.notifications.unarchive({ subscriberId: 'ada', notificationId: second })).result;
    expect(back).toMatchObject({ isArchived: false, archivedAt: null });

    await novu.subscribers.notifications.markAllAsRead({}, 'ada');
    expect(await counts([{ read: false }, { read: true }])).toEqual([0, 3]);
    expect(await counts([{ read: false }], 'bob')).toEqual([1]);
  });

  it('snoozes until a time and unsnoozes', async () => {
    const until = new Date(Date.now() + 3_600_000);
    const snoozed = (await novu.subscribers.notifications.snooze({ subscriberId: 'ada', notificationId: third, snoozeSubscriberNotificationDto: { snoozeUntil: until } })).result;
    expect(snoozed).toMatchObject({ isSnoozed: true, snoozedUntil: until.toISOString() });
    expect(bodies((await list({ snoozed: true })).data)).toEqual(['Order 3 shipped']);
    const past = { subscriberId: 'ada', notificationId: third, snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() - 1000) } };
    await expect(novu.subscribers.notifications.snooze(past)).rejects.toMatchObject({ statusCode: 422 });
    const awake = (await novu.subscribers.notifications.unsnooze({ subscriberId: 'ada', notificationId: third })).result;
    expect(awake).toMatchObject({ isSnoozed: false, snoozedUntil: null });
  });

  it('completes and reverts the primary action; a missing action or another subscriber’s notification is refused', async () => {
    const ref = { subscriberId: 'ada', notificationId: third };
    const done = (await novu.subscribers.notifications.completeAction({ ...ref, actionType: 'primary' })).result;
    expect(done.primaryAction).toEqual({ label: 'Open', isCompleted: true, redirect: { url: 'https://example.com/o' } });
    expect(done).toMatchObject({ id: third, body: 'Order 3 shipped', to: { subscriberId: 'ada' } });
    expect((await list({ contextKeys: ['app:web', 'tenant:acme'] })).data[0].primaryAction?.isCompleted).toBe(true);
    const reverted = (await novu.subscribers.notifications.revertAction({ ...ref, actionType: 'primary' })).result;
    expect(reverted.primaryAction?.isCompleted).toBe(false);

    await expect(novu.subscribers.notifications.completeAction({ ...ref, actionType: 'secondary' })).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('no secondary action'),
    });
    await expect(novu.subscribers.notifications.completeAction({ ...ref, notificationId: bobs, actionType: 'primary' })).rejects.toMatchObject({
      statusCode: 404,
      message: expect.stringContaining(bobs),
    });
    await expect(novu.subscribers.notifications.completeAction({ ...ref, contextKeys: ['tenant:other'], actionType: 'primary' })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(novu.subscribers.notifications.completeAction({ subscriberId: 'nobody', notificationId: third, actionType: 'primary' })).rejects.toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('nobody'),
    });
    await expect(novu.subscribers.notifications.markAsRead({ subscriberId: 'ada', notificationId: 'not-an-id' })).rejects.toMatchObject({ statusCode: 404 });
    // Bob's notification is untouched by everything done to Ada's inbox.
    expect((await list({}, 'bob')).data[0]).toMatchObject({ isRead: false, primaryAction: { isCompleted: false } });
  });

  it('archives the read notifications and deletes one or all', async () => {
    const bobNew = await deliver('bob', '10');
    await novu.subscribers.notifications.markAsRead({ subscriberId: 'bob', notificationId: bobs });
    await novu.subscribers.notifications.archiveAllRead({}, 'bob');
    expect(await counts([{ archived: true }, { archived: false }], 'bob')).toEqual([1, 1]);
    await novu.subscribers.notifications.delete({ subscriberId: 'bob', notificationId: bobNew });
    await expect(novu.subscribers.notifications.delete({ subscriberId: 'bob', notificationId: bobNew })).rejects.toMatchObject({ statusCode: 404 });
    expect(bodies((await list({}, 'bob')).data)).toEqual(['Order 9 shipped']);
    await novu.subscribers.notifications.archiveAll({}, 'ada');
    expect(await counts([{ archived: true }])).toEqual([3]);
    await novu.subscribers.notifications.deleteAll({}, 'bob');
    expect((await list({}, 'bob')).data).toEqual([]);
    expect((await list({})).data).toHaveLength(3);
  });

  it('rejects bad filters and unknown subscribers with a clear 4xx', async () => {
    await expect(novu.subscribers.notifications.count('ada', 'not json')).rejects.toMatchObject({ statusCode: 422, message: expect.stringContaining('filters') });
    await expect(novu.subscribers.notifications.list({ subscriberId: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.subscribers.notifications.list({ subscriberId: 'ada', limit: 101 })).rejects.toMatchObject({ statusCode: 422 });
  });
});
