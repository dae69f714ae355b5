import type { InboxOwner } from '../../entities/inbox';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';

/** The subscriber whose inbox a request addresses; SUBSCRIBER_NOT_FOUND when there is none. */
export async function requireInboxOwner(inbox: InboxRepository, environmentId: string, subscriberId: string): Promise<InboxOwner> {
  const owner = await inbox.owner(environmentId, subscriberId);
  if (!owner) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
  return owner;
}

export function inboxNotificationNotFound(notificationId: string, subscriberId: string): DomainError {
  return new DomainError('NOTIFICATION_NOT_FOUND', `Notification '${notificationId}' was not found in the inbox of subscriber '${subscriberId}'`);
}
