import type { InboxAction, InboxNotification } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { InboxNotificationSchema } from './inbox.schemas';

type Presented = z.infer<typeof InboxNotificationSchema>;

/** Optional fields of the inbox resource are left out, never null (the SDK rejects null there). */
function present<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}

function presentAction(action: InboxAction | null): Presented['primaryAction'] {
  if (!action) return undefined;
  return { label: action.label, isCompleted: action.isCompleted === true, ...(action.redirect ? { redirect: action.redirect } : {}) };
}

export function presentInboxNotification(n: InboxNotification): Presented {
  const w = n.workflow;
  return {
    id: n.id,
    transactionId: n.transactionId,
    subject: present(n.subject),
    body: n.body,
    to: {
      id: n.to.id,
      subscriberId: n.to.subscriberId,
      firstName: present(n.to.firstName),
      lastName: present(n.to.lastName),
      avatar: present(n.to.avatar),
    },
    isRead: n.isRead,
    isSeen: n.isSeen,
    isArchived: n.isArchived,
    isSnoozed: n.isSnoozed,
    snoozedUntil: n.isSnoozed ? (n.snoozedUntil?.toISOString() ?? null) : null,
    readAt: n.readAt?.toISOString() ?? null,
    firstSeenAt: n.firstSeenAt?.toISOString() ?? null,
    archivedAt: n.archivedAt?.toISOString() ?? null,
    deliveredAt: n.deliveredAt.map((d) => d.toISOString()),
    createdAt: n.createdAt.toISOString(),
    avatar: present(n.avatar),
    primaryAction: presentAction(n.primaryAction),
    secondaryAction: presentAction(n.secondaryAction),
    channelType: n.channelType,
    tags: n.tags,
    data: present(n.data),
    redirect: present(n.redirect),
    workflow: w
      ? {
          id: w.id,
          identifier: w.identifier,
          name: w.name,
          critical: w.critical,
          severity: w.severity,
          ...(w.tags ? { tags: w.tags } : {}),
          ...(w.data ? { data: w.data } : {}),
        }
      : undefined,
    severity: n.severity,
  };
}
