import type { InboxSelection } from '../../entities/inbox';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';
import { inboxPatch } from '../../rules/inbox-patch';
import { resolveInboxSelection, type InboxSelector, type SelectAllForms } from '../../rules/inbox-selection';
import { normaliseContextKeys } from '../../shared/context-keys';
import { requireInboxOwner } from './inbox-owner';

/** The bulk operations of the inbox; each is one set-based change of the selected notifications. */
export type InboxBulkOperation = 'read' | 'seen' | 'archive' | 'archive-read' | 'delete';

export interface ChangeInboxNotificationsInput {
  environmentId: string;
  subscriberId: string;
  operation: InboxBulkOperation;
  selector: InboxSelector;
  /** The empty forms that mean "all" on the caller's route (see SelectAllForms). */
  selectAll: SelectAllForms;
}

const IDS_MAX = 100;

/** Mark all read, mark seen, archive all, archive the read ones, or delete all, within a selection. */
export class ChangeInboxNotifications {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(input: ChangeInboxNotificationsInput): Promise<number> {
    const { operation } = input;
    const ids = input.selector.notificationIds;
    if (ids && ids.length > IDS_MAX) throw DomainError.field('notificationIds', `must list at most ${IDS_MAX} ids`, ids.length);
    const resolved = resolveInboxSelection(input.selector, input.selectAll);
    if ('errors' in resolved) throw DomainError.validation(resolved.errors);
    const owner = await requireInboxOwner(this.inbox, input.environmentId, input.subscriberId);
    const selection: InboxSelection = { ...resolved.selection, contextKeys: normaliseContextKeys(resolved.selection.contextKeys) };
    if (operation === 'delete') return this.inbox.delete(owner, selection);
    if (operation === 'archive-read') return this.inbox.updateMany(owner, { ...selection, onlyRead: true }, inboxPatch({ kind: 'archive' }, this.now()));
    return this.inbox.updateMany(owner, selection, inboxPatch({ kind: operation }, this.now()));
  }
}
