import { SEVERITIES, type Severity } from '../../entities/channel';
import type { InboxNotification } from '../../entities/inbox';
import type { InboxFeedEvent } from '../../ports/inbox-feed';
import type { InboxRepository } from '../../ports/inbox-repository';
import type { UnreadCount } from './unread-count';

/** What one connected subscriber is told: the notifications just delivered, the new unread and unseen counts. */
export interface LiveInboxChange {
  environmentId: string;
  subscriberRef: string;
  notifications: InboxNotification[];
  unreadCount: UnreadCount;
  unseenCount: number;
}

/**
 * Reads what the feed's events mean for the subscribers this process holds sockets for: two
 * set-based statements per environment, whatever the number of subscribers.
 */
export class ReadLiveInboxChanges {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(events: readonly InboxFeedEvent[]): Promise<LiveInboxChange[]> {
    const byEnvironment = new Map<string, Map<string, string[]>>();
    for (const e of events) {
      const subscribers = byEnvironment.get(e.environmentId) ?? new Map<string, string[]>();
      subscribers.set(e.subscriberRef, [...(subscribers.get(e.subscriberRef) ?? []), ...e.jobIds]);
      byEnvironment.set(e.environmentId, subscribers);
    }
    const changes = await Promise.all([...byEnvironment].map(([environmentId, subscribers]) => this.read(environmentId, subscribers)));
    return changes.flat();
  }

  private async read(environmentId: string, subscribers: Map<string, string[]>): Promise<LiveInboxChange[]> {
    const jobIds = [...subscribers.values()].flat();
    const refs = [...subscribers.keys()];
    const [notifications, counts] = await Promise.all([jobIds.length ? this.inbox.findByJobs(environmentId, jobIds) : [], this.inbox.liveCounts(environmentId, refs)]);
    return refs.map((subscriberRef) => {
      const bySeverity = counts.get(subscriberRef)?.unread ?? {};
      const severity = Object.fromEntries(SEVERITIES.map((s) => [s, bySeverity[s] ?? 0])) as Record<Severity, number>;
      return {
        environmentId,
        subscriberRef,
        notifications: notifications.filter((n) => n.to.id === subscriberRef).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
        unreadCount: { total: SEVERITIES.reduce((sum, s) => sum + severity[s], 0), severity },
        unseenCount: counts.get(subscriberRef)?.unseen ?? 0,
      };
    });
  }
}
