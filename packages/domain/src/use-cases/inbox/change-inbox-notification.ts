import type { InboxChange, InboxNotification } from '../../entities/inbox';
import type { InboxRepository } from '../../ports/inbox-repository';
import { inboxPatch } from '../../rules/inbox-patch';
import { normaliseContextKeys } from '../../shared/context-keys';
import { inboxNotificationNotFound, requireInboxOwner } from './inbox-owner';

export interface InboxNotificationRef {
  environmentId: string;
  subscriberId: string;
  notificationId: string;
  /** When given, the notification must carry exactly these context keys. */
  contextKeys?: string[];
}

/** Marks one notification read, unread, seen, archived, unarchived, snoozed or unsnoozed. */
export class ChangeInboxNotification {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(ref: InboxNotificationRef, change: InboxChange): Promise<InboxNotification> {
    const patch = inboxPatch(change, this.now());
    const owner = await requireInboxOwner(this.inbox, ref.environmentId, ref.subscriberId);
    const updated = await this.inbox.update(owner, ref.notificationId, patch, normaliseContextKeys(ref.contextKeys));
    if (!updated) throw inboxNotificationNotFound(ref.notificationId, ref.subscriberId);
    return updated;
  }
}

/** Removes one notification from a subscriber's inbox. */
export class DeleteInboxNotification {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(ref: InboxNotificationRef): Promise<void> {
    const owner = await requireInboxOwner(this.inbox, ref.environmentId, ref.subscriberId);
    const contextKeys = normaliseContextKeys(ref.contextKeys);
    const deleted = await this.inbox.delete(owner, { ids: [ref.notificationId], ...(contextKeys ? { contextKeys } : {}) });
    if (!deleted) throw inboxNotificationNotFound(ref.notificationId, ref.subscriberId);
  }
}
