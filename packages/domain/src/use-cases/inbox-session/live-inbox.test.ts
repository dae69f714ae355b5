import { describe, expect, it } from 'vitest';
import type { InboxNotification, InboxOwner } from '../../entities/inbox';
import type { InboxFeedEvent } from '../../ports/inbox-feed';
import type { JobOutcome } from '../../ports/job-repository';
import { InMemoryInboxFeed } from '../../testing/in-memory-inbox-feed';
import { eventually } from '../../testing/inbox-feed-contract';
import { InMemoryInboxRepository } from '../../testing/in-memory-inbox-repository';
import { InboxLiveObserver } from './inbox-live-observer';
import { ReadLiveInboxChanges } from './read-live-inbox-changes';

const ada: InboxOwner = { id: 'sub-ada', environmentId: 'env-1', subscriberId: 'ada', firstName: null, lastName: null, avatar: null };

function outcome(jobId: string, subscriberRef: string, type: string, status: JobOutcome['status'] = 'completed'): JobOutcome {
  return {
    status,
    details: [],
    message: type === 'in_app' ? ({} as JobOutcome['message']) : undefined,
    job: { jobId, environmentId: 'env-1', subscriber: { id: subscriberRef }, step: { type } } as unknown as JobOutcome['job'],
  };
}

function notification(id: string, severity: InboxNotification['severity'], extra: Partial<InboxNotification> = {}): InboxNotification {
  return {
    id, transactionId: 't', subject: null, body: id, to: ada, isRead: false, isSeen: false, isArchived: false, isSnoozed: false,
    snoozedUntil: null, readAt: null, firstSeenAt: null, archivedAt: null, deliveredAt: [], createdAt: new Date(), avatar: null,
    primaryAction: null, secondaryAction: null, channelType: 'in_app', tags: [], data: null, redirect: null, workflow: null, severity, contextKeys: [],
    ...extra,
  };
}

describe('InboxLiveObserver', () => {
  it('publishes once per slice, one event per subscriber that got an in-app message', async () => {
    const published: InboxFeedEvent[][] = [];
    const feed = new InMemoryInboxFeed();
    await feed.setPresent(true);
    feed.subscribe((events) => published.push(events));
    const observer = new InboxLiveObserver(feed);
    observer.recorded([outcome('j1', 'ada', 'in_app'), outcome('j2', 'ada', 'in_app'), outcome('j3', 'bob', 'email'), outcome('j4', 'cy', 'in_app', 'failed')]);
    await eventually(() => published.length > 0);
    expect(published).toEqual([[{ environmentId: 'env-1', subscriberRef: 'ada', jobIds: ['j1', 'j2'] }]]);
    observer.recorded([outcome('j5', 'bob', 'email')]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(published).toHaveLength(1);
  });
});

describe('ReadLiveInboxChanges', () => {
  it('reads the new notifications and the unread and unseen counts of each subscriber in the events', async () => {
    const inbox = new InMemoryInboxRepository();
    inbox.notifications.push(notification('n1', 'high'), notification('n2', 'none'), notification('n3', 'none', { isRead: true }), notification('n4', 'low', { isRead: true, isSeen: true }));
    inbox.jobs.set('j2', 'n2');
    const changes = await new ReadLiveInboxChanges(inbox).execute([
      { environmentId: 'env-1', subscriberRef: 'sub-ada', jobIds: ['j2'] },
      { environmentId: 'env-1', subscriberRef: 'sub-gone', jobIds: [] },
    ]);
    expect(changes).toMatchObject([
      { subscriberRef: 'sub-ada', notifications: [{ id: 'n2' }], unreadCount: { total: 2, severity: { high: 1, medium: 0, low: 0, none: 1 } }, unseenCount: 3 },
      { subscriberRef: 'sub-gone', notifications: [], unreadCount: { total: 0 }, unseenCount: 0 },
    ]);
  });
});
