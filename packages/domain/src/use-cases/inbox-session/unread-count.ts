import { SEVERITIES, type Severity } from '../../entities/channel';
import type { InboxOwner } from '../../entities/inbox';
import type { InboxRepository } from '../../ports/inbox-repository';

/** The Inbox bell's figure: unread, unarchived, unsnoozed notifications, in total and per severity. */
export interface UnreadCount {
  total: number;
  severity: Record<Severity, number>;
}

/** One scan of the owner's inbox, one count per severity. */
export async function unreadCount(inbox: InboxRepository, owner: InboxOwner): Promise<UnreadCount> {
  const counts = await inbox.count(owner, SEVERITIES.map((s) => ({ read: false, archived: false, snoozed: false, severity: [s] })));
  const severity = Object.fromEntries(SEVERITIES.map((s, i) => [s, counts[i] ?? 0])) as Record<Severity, number>;
  return { total: counts.reduce((sum, c) => sum + c, 0), severity };
}
