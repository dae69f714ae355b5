import type { InboxAction, InboxNotification } from '@herald/domain';

type Button = { type: 'primary' | 'secondary'; content: string; url?: string; target?: string };

function button(type: Button['type'], action: InboxAction | null): Button[] {
  return action ? [{ type, content: action.label, ...(action.redirect ? { url: action.redirect.url, target: action.redirect.target } : {}) }] : [];
}

/**
 * A notification in the message shape the client's socket handler maps (`_id`, `content`, `read`,
 * `cta.action.buttons`...): the shape the interface's websocket has always pushed.
 */
export function presentSocketMessage(n: InboxNotification): Record<string, unknown> {
  const completed = n.primaryAction?.isCompleted ? 'primary' : n.secondaryAction?.isCompleted ? 'secondary' : undefined;
  return {
    _id: n.id,
    transactionId: n.transactionId,
    subject: n.subject ?? undefined,
    content: n.body,
    read: n.isRead,
    seen: n.isSeen,
    archived: n.isArchived,
    snoozedUntil: n.isSnoozed ? n.snoozedUntil?.toISOString() : undefined,
    deliveredAt: n.deliveredAt.map((d) => d.toISOString()),
    createdAt: n.createdAt.toISOString(),
    lastReadDate: n.readAt?.toISOString() ?? null,
    firstSeenDate: n.firstSeenAt?.toISOString() ?? null,
    archivedAt: n.archivedAt?.toISOString() ?? null,
    channel: n.channelType,
    subscriber: {
      _id: n.to.id,
      subscriberId: n.to.subscriberId,
      firstName: n.to.firstName ?? undefined,
      lastName: n.to.lastName ?? undefined,
      avatar: n.to.avatar ?? undefined,
    },
    avatar: n.avatar ?? undefined,
    cta: {
      data: n.redirect ? { url: n.redirect.url, target: n.redirect.target } : {},
      action: {
        buttons: [...button('primary', n.primaryAction), ...button('secondary', n.secondaryAction)],
        ...(completed ? { status: 'done', result: { type: completed } } : { status: 'pending' }),
      },
    },
    tags: n.tags,
    data: n.data ?? undefined,
    workflow: n.workflow
      ? { id: n.workflow.id, identifier: n.workflow.identifier, name: n.workflow.name, critical: n.workflow.critical, tags: n.workflow.tags ?? [], severity: n.workflow.severity }
      : undefined,
    severity: n.severity,
  };
}
