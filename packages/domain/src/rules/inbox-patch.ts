import { assertNever } from '../entities/channel';
import type { InboxChange, InboxPatch } from '../entities/inbox';
import { DomainError } from '../errors';

/**
 * The flags an inbox change sets. Reading implies seeing; archiving implies reading (an archived
 * notification no longer counts as unread); snoozing needs a time in the future.
 */
export function inboxPatch(change: InboxChange, now: Date): InboxPatch {
  switch (change.kind) {
    case 'read':
      return { read: true, seen: true };
    case 'unread':
      return { read: false };
    case 'seen':
      return { seen: true };
    case 'archive':
      return { archived: true, read: true, seen: true };
    case 'unarchive':
      return { archived: false };
    case 'snooze':
      if (Number.isNaN(change.until.getTime()) || change.until <= now) {
        throw DomainError.field('snoozeUntil', 'must be a valid time in the future');
      }
      return { snoozedUntil: change.until, seen: true };
    case 'unsnooze':
      return { snoozedUntil: null };
    default:
      return assertNever(change, 'inbox change');
  }
}
