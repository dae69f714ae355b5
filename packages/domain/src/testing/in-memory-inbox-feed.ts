import type { InboxFeed, InboxFeedEvent } from '../ports/inbox-feed';

/** The processes of one installation, as far as their inbox feeds go. */
export class InMemoryInboxHub {
  readonly feeds = new Set<InMemoryInboxFeed>();
}

/**
 * The InboxFeed double: one process's feed on a hub that the installation's other processes share.
 * Publishing hears nothing while no process holds Inbox clients, and delivers later (never while the
 * publisher waits) to every listener of every process. `inbox-feed-contract.ts` holds it to the
 * PostgreSQL feed's behaviour.
 */
export class InMemoryInboxFeed implements InboxFeed {
  private readonly listeners = new Set<(events: InboxFeedEvent[]) => void>();
  private present = false;

  constructor(readonly hub = new InMemoryInboxHub()) {
    hub.feeds.add(this);
  }

  heard(): boolean {
    return [...this.hub.feeds].some((feed) => feed.present);
  }

  publish(events: readonly InboxFeedEvent[]): void {
    if (!events.length || !this.heard()) return;
    const sent = structuredClone([...events]);
    setTimeout(() => {
      for (const feed of this.hub.feeds) for (const listener of feed.listeners) listener(structuredClone(sent));
    }, 0);
  }

  subscribe(listener: (events: InboxFeedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async setPresent(present: boolean): Promise<void> {
    this.present = present;
  }
}
