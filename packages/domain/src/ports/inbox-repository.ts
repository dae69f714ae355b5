import { token } from '../shared/token';
import type { Severity } from '../entities/channel';
import type { InboxActionType, InboxFilter, InboxNotification, InboxOwner, InboxPatch, InboxSelection } from '../entities/inbox';

export const InboxRepository = token<InboxRepository>('InboxRepository');

export interface LiveCounts {
  unread: Partial<Record<Severity, number>>;
  unseen: number;
}

/** Every method reads or changes only the in-app notifications of the given owner. */
export interface InboxRepository {
  /** The subscriber with that external id in the environment, or null. */
  owner(environmentId: string, subscriberId: string): Promise<InboxOwner | null>;
  /**
   * Newest first (createdAt then id, descending). `after` is the id of the last notification of the
   * previous page (null page when it is not one of the owner's); `offset` skips that many more.
   */
  list(owner: InboxOwner, filter: InboxFilter, page: { limit: number; after?: string; offset: number }): Promise<{ notifications: InboxNotification[]; hasMore: boolean }>;
  /** One count per filter, in the same order, from a single scan. */
  count(owner: InboxOwner, filters: InboxFilter[]): Promise<number[]>;
  /** null when unknown, malformed, another subscriber's, or outside the given context. */
  find(owner: InboxOwner, notificationId: string, contextKeys?: string[]): Promise<InboxNotification | null>;
  /** Applies the patch with its timestamps (see InboxPatch); null when not found as in `find`. */
  update(owner: InboxOwner, notificationId: string, patch: InboxPatch, contextKeys?: string[]): Promise<InboxNotification | null>;
  /** Applies the patch to every selected notification in one statement; returns how many matched. */
  updateMany(owner: InboxOwner, selection: InboxSelection, patch: InboxPatch): Promise<number>;
  /** Sets the action's isCompleted; null when not found or when the notification has no such action. */
  setActionCompleted(owner: InboxOwner, notificationId: string, action: InboxActionType, completed: boolean, contextKeys?: string[]): Promise<InboxNotification | null>;
  /** Deletes the selected notifications (one by id when `ids` has one entry); returns how many. */
  delete(owner: InboxOwner, selection: InboxSelection): Promise<number>;
  /** The in-app notifications these jobs created in the environment, with their owners (live pushes). */
  findByJobs(environmentId: string, jobIds: string[]): Promise<InboxNotification[]>;
  /**
   * The Inbox's live counts of each subscriber (internal ids), in one statement, among unarchived,
   * unsnoozed notifications: the unread per severity and the unseen; a subscriber with none is absent.
   */
  liveCounts(environmentId: string, subscriberRefs: string[]): Promise<Map<string, LiveCounts>>;
}
