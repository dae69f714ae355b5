import { beforeEach, describe, expect, it } from 'vitest';
import type { InboxActionType, InboxNotification, InboxOwner } from '../../entities/inbox';
import { InMemoryInboxRepository } from '../../testing/in-memory-inbox-repository';
import { ChangeInboxNotification, type InboxNotificationRef } from './change-inbox-notification';
import { ChangeInboxNotifications } from './change-inbox-notifications';
import { CompleteInboxAction } from './complete-inbox-action';
import { CountInboxNotifications, ListInboxNotifications } from './inbox-queries';

const ENV = 'env-1';
const T0 = new Date('2030-01-01T00:00:00Z');
const ada: InboxOwner = { id: 'sub-ada', environmentId: ENV, subscriberId: 'ada', firstName: 'Ada', lastName: null, avatar: null };
const bob: InboxOwner = { id: 'sub-bob', environmentId: ENV, subscriberId: 'bob', firstName: null, lastName: null, avatar: null };

function notification(id: string, to: InboxOwner, minute: number, extra: Partial<InboxNotification> = {}): InboxNotification {
  return {
    id, transactionId: `tx-${id}`, subject: null, body: `body ${id}`, to,
    isRead: false, isSeen: false, isArchived: false, isSnoozed: false,
    snoozedUntil: null, readAt: null, firstSeenAt: null, archivedAt: null, deliveredAt: [],
    createdAt: new Date(T0.getTime() + minute * 60_000), avatar: null,
    primaryAction: { label: 'Open', isCompleted: false }, secondaryAction: null,
    channelType: 'in_app', tags: [], data: null, redirect: null, workflow: null, severity: 'none', contextKeys: [],
    ...extra,
  };
}

let clock: Date;
let repo: InMemoryInboxRepository;
const ref = (notificationId: string, subscriberId = 'ada') => ({ environmentId: ENV, subscriberId, notificationId });

beforeEach(() => {
  clock = T0;
  repo = new InMemoryInboxRepository(() => clock);
  repo.owners.push(ada, bob);
  repo.notifications.push(
    notification('n1', ada, 1),
    notification('n2', ada, 2, { contextKeys: ['app:web', 'tenant:acme'], tags: ['billing'] }),
    notification('n3', ada, 3),
    notification('b1', bob, 4),
  );
});

describe('CompleteInboxAction', () => {
  const complete = () => new CompleteInboxAction(repo);

  it('completes and reverts an action the notification has', async () => {
    expect((await complete().execute(ref('n1'), 'primary')).primaryAction).toEqual({ label: 'Open', isCompleted: true });
    expect((await complete().execute(ref('n1'), 'primary', false)).primaryAction?.isCompleted).toBe(false);
  });

  it.each<[string, InboxNotificationRef, InboxActionType, string, RegExp]>([
    ['an action the notification does not have', ref('n1'), 'secondary', 'NOTIFICATION_ACTION_MISSING', /no secondary action/],
    ["another subscriber's notification", ref('b1'), 'primary', 'NOTIFICATION_NOT_FOUND', /'b1'.*'ada'/],
    ['an unknown subscriber', ref('n1', 'nobody'), 'primary', 'SUBSCRIBER_NOT_FOUND', /nobody/],
    ['a notification outside the given context', { ...ref('n2'), contextKeys: ['tenant:acme'] }, 'primary', 'NOTIFICATION_NOT_FOUND', /n2/],
  ])('refuses %s', async (_, target, action, code, message) => {
    await expect(complete().execute(target, action)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('matches context keys in any order', async () => {
    const done = await complete().execute({ ...ref('n2'), contextKeys: ['tenant:acme', 'app:web'] }, 'primary');
    expect(done.primaryAction?.isCompleted).toBe(true);
  });
});

describe('ChangeInboxNotification', () => {
  it('keeps the first time a notification was seen, and clears readAt when unread', async () => {
    const change = new ChangeInboxNotification(repo, () => clock);
    const read = await change.execute(ref('n1'), { kind: 'read' });
    expect(read).toMatchObject({ isRead: true, isSeen: true, readAt: T0, firstSeenAt: T0 });
    clock = new Date(T0.getTime() + 60_000);
    expect(await change.execute(ref('n1'), { kind: 'unread' })).toMatchObject({ isRead: false, readAt: null, firstSeenAt: T0 });
    expect(await change.execute(ref('n1'), { kind: 'archive' })).toMatchObject({ isArchived: true, archivedAt: clock, readAt: clock, firstSeenAt: T0 });
    await expect(change.execute(ref('b1'), { kind: 'read' })).rejects.toMatchObject({ code: 'NOTIFICATION_NOT_FOUND' });
  });
});

describe('ChangeInboxNotifications and the queries', () => {
  it('changes only the selected notifications of the subscriber and counts per filter', async () => {
    const bulk = new ChangeInboxNotifications(repo, () => clock);
    const count = new CountInboxNotifications(repo);
    const all = { empty: true, emptyTagList: false };
    expect(await bulk.execute({ environmentId: ENV, subscriberId: 'ada', operation: 'read', selector: { tags: { and: ['billing'] } }, selectAll: all })).toBe(1);
    expect(await bulk.execute({ environmentId: ENV, subscriberId: 'ada', operation: 'delete', selector: { tags: { or: ['nomatch'] } }, selectAll: all })).toBe(0);
    await expect(bulk.execute({ environmentId: ENV, subscriberId: 'ada', operation: 'delete', selector: { tags: [] }, selectAll: all })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const counted = await count.execute(ENV, 'ada', [{ read: true }, { read: false }, { contextKeys: ['tenant:acme', 'app:web'] }]);
    expect(counted.map((c) => c.count)).toEqual([1, 2, 1]);
    expect(await bulk.execute({ environmentId: ENV, subscriberId: 'ada', operation: 'archive-read', selector: {}, selectAll: all })).toBe(1);
    expect(await bulk.execute({ environmentId: ENV, subscriberId: 'ada', operation: 'delete', selector: {}, selectAll: all })).toBe(3);
    expect((await count.execute(ENV, 'bob', [{}]))[0].count).toBe(1);
    await expect(count.execute(ENV, 'ada', [])).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('lists newest first and continues after a notification id', async () => {
    const list = new ListInboxNotifications(repo);
    const first = await list.execute({ environmentId: ENV, subscriberId: 'ada', filter: {}, limit: 2 });
    expect(first.notifications.map((n) => n.id)).toEqual(['n3', 'n2']);
    expect(first.hasMore).toBe(true);
    const next = await list.execute({ environmentId: ENV, subscriberId: 'ada', filter: {}, limit: 2, after: 'n2' });
    expect(next).toMatchObject({ hasMore: false, notifications: [{ id: 'n1' }] });
    await expect(list.execute({ environmentId: ENV, subscriberId: 'ada', filter: {}, limit: 101 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
