import type { ChannelType, Severity } from './channel';
import type { JsonObject } from './delivery';

export const INBOX_ACTION_TYPES = ['primary', 'secondary'] as const;
export type InboxActionType = (typeof INBOX_ACTION_TYPES)[number];

export interface InboxRedirect {
  url: string;
  target?: string;
}

export interface InboxAction {
  label: string;
  isCompleted: boolean;
  redirect?: InboxRedirect;
}

/** The subscriber whose inbox is read or changed; `id` is the internal id. */
export interface InboxOwner {
  id: string;
  environmentId: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  avatar: string | null;
}

/** The spec's Inbox notification resource: one in-app message of one subscriber. */
export interface InboxNotification {
  id: string;
  transactionId: string;
  subject: string | null;
  body: string;
  to: InboxOwner;
  isRead: boolean;
  isSeen: boolean;
  isArchived: boolean;
  /** True only while snoozedUntil lies in the future. */
  isSnoozed: boolean;
  snoozedUntil: Date | null;
  readAt: Date | null;
  firstSeenAt: Date | null;
  archivedAt: Date | null;
  deliveredAt: Date[];
  createdAt: Date;
  avatar: string | null;
  primaryAction: InboxAction | null;
  secondaryAction: InboxAction | null;
  channelType: ChannelType;
  tags: string[];
  data: JsonObject | null;
  redirect: InboxRedirect | null;
  workflow: { id: string; identifier: string; name: string; critical: boolean; tags?: string[]; data?: JsonObject; severity: Severity } | null;
  severity: Severity;
  contextKeys: string[];
}

/** Filters of the inbox list and counts; every given filter must match. */
export interface InboxFilter {
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  snoozed?: boolean;
  severity?: Severity[];
  /** Groups of tags: a notification carries at least one tag of every group. */
  tags?: string[][];
  /** The notification's data contains these attributes. */
  data?: JsonObject;
  /** Exact, order-insensitive match. */
  contextKeys?: string[];
  createdGte?: Date;
  createdLte?: Date;
}

/** Which notifications a bulk change applies to. */
export interface InboxSelection {
  ids?: string[];
  /** As InboxFilter's: at least one tag of every group. */
  tags?: string[][];
  data?: JsonObject;
  contextKeys?: string[];
  /** Only notifications already read (archive-read). */
  onlyRead?: boolean;
}

export type InboxChange =
  | { kind: 'read' }
  | { kind: 'unread' }
  | { kind: 'seen' }
  | { kind: 'archive' }
  | { kind: 'unarchive' }
  | { kind: 'snooze'; until: Date }
  | { kind: 'unsnooze' };

/**
 * The flags a change sets. Adapters derive the timestamps from them: readAt is set when a notification
 * becomes read and cleared when it becomes unread, firstSeenAt is set only the first time,
 * archivedAt follows `archived` like readAt follows `read`.
 */
export interface InboxPatch {
  read?: boolean;
  seen?: true;
  archived?: boolean;
  snoozedUntil?: Date | null;
}
