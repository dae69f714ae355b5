import type { DeliveryObserver } from '../../ports/delivery-observer';
import type { InboxFeed, InboxFeedEvent } from '../../ports/inbox-feed';
import type { JobOutcome } from '../../ports/job-repository';

/**
 * Hears each recorded slice of step runs and publishes, in one batch, the subscribers that just
 * received an in-app message: connected Inbox clients are told at once, on whichever process holds them.
 */
export class InboxLiveObserver implements DeliveryObserver {
  constructor(private readonly feed: InboxFeed) {}

  recorded(outcomes: readonly JobOutcome[]): void {
    // A fan-out chunk records a thousand outcomes: skip grouping them when nobody would hear.
    if (!this.feed.heard()) return;
    const bySubscriber = new Map<string, InboxFeedEvent>();
    for (const { job, status, message } of outcomes) {
      if (job.step.type !== 'in_app' || status !== 'completed' || !message) continue;
      const key = `${job.environmentId}:${job.subscriber.id}`;
      const event = bySubscriber.get(key) ?? { environmentId: job.environmentId, subscriberRef: job.subscriber.id, jobIds: [] };
      event.jobIds.push(job.jobId);
      bySubscriber.set(key, event);
    }
    if (bySubscriber.size) this.feed.publish([...bySubscriber.values()]);
  }
}
