import type { InboxActionType, InboxNotification } from '../../entities/inbox';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { InboxNotificationRef } from './change-inbox-notification';
import { inboxNotificationNotFound, requireInboxOwner } from './inbox-owner';

/**
 * Completes (or, with `completed: false`, reverts) the primary or secondary action of an in-app
 * notification (spec operation 12). A notification without that action is a 422, not a 404.
 */
export class CompleteInboxAction {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(ref: InboxNotificationRef, action: InboxActionType, completed = true): Promise<InboxNotification> {
    const owner = await requireInboxOwner(this.inbox, ref.environmentId, ref.subscriberId);
    const contextKeys = normaliseContextKeys(ref.contextKeys);
    const found = await this.inbox.find(owner, ref.notificationId, contextKeys);
    if (!found) throw inboxNotificationNotFound(ref.notificationId, ref.subscriberId);
    if (!(action === 'primary' ? found.primaryAction : found.secondaryAction)) {
      const message = `Notification '${ref.notificationId}' has no ${action} action`;
      throw new DomainError('NOTIFICATION_ACTION_MISSING', message, { actionType: { messages: [message], value: action } });
    }
    const updated = await this.inbox.setActionCompleted(owner, ref.notificationId, action, completed, contextKeys);
    // Gone between the two statements (deleted meanwhile): the same answer as if it never existed.
    if (!updated) throw inboxNotificationNotFound(ref.notificationId, ref.subscriberId);
    return updated;
  }
}
