import { token } from '../shared/token';

export const InboxFeed = token<InboxFeed>('InboxFeed');

/** Something changed in a subscriber's inbox: new messages (by the jobs that made them) or states. */
export interface InboxFeedEvent {
  environmentId: string;
  /** The subscriber's internal id. */
  subscriberRef: string;
  /** Jobs whose in-app message was just created; empty when only states (read, archived...) changed. */
  jobIds: string[];
}

/** Carries inbox changes to every process of the installation, so each can push to its own sockets. */
export interface InboxFeed {
  /**
   * Whether what is published now may reach a client: false once this process knows that no process
   * holds Inbox sockets (see `setPresent`), when publishing sends nothing and a publisher need not
   * build its events. An arrival is known at once; the last departure as publishing goes on.
   */
  heard(): boolean;
  /** Fire and forget: never throws, never blocks the caller; events may be merged or split. */
  publish(events: readonly InboxFeedEvent[]): void;
  /** Hears what any process published (this one too); returns the function that stops listening. */
  subscribe(listener: (events: InboxFeedEvent[]) => void): () => void;
  /**
   * Whether this process holds live Inbox clients. While no process does, publishing may send
   * nothing; resolves once the change is announced to the other processes (never rejects).
   */
  setPresent(present: boolean): Promise<void>;
}
