import type { InboxFilter, InboxNotification } from '../../entities/inbox';
import { DomainError } from '../../errors';
import type { InboxRepository } from '../../ports/inbox-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import { requireInboxOwner } from './inbox-owner';

export const INBOX_PAGE_MAX = 100;
export const INBOX_COUNT_FILTERS_MAX = 30;

export interface ListInboxInput {
  environmentId: string;
  subscriberId: string;
  filter: InboxFilter;
  limit: number;
  after?: string;
  offset?: number;
}

/** Sorted context keys, so the repositories compare them as stored. */
function normalised(filter: InboxFilter): InboxFilter {
  return filter.contextKeys ? { ...filter, contextKeys: normaliseContextKeys(filter.contextKeys) } : filter;
}

/** A subscriber's inbox, newest first, a page at a time. */
export class ListInboxNotifications {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(input: ListInboxInput): Promise<{ notifications: InboxNotification[]; hasMore: boolean }> {
    const offset = input.offset ?? 0;
    if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > INBOX_PAGE_MAX) {
      throw DomainError.field('limit', `must be an integer from 1 to ${INBOX_PAGE_MAX}`, input.limit);
    }
    if (!Number.isInteger(offset) || offset < 0) throw DomainError.field('offset', 'must be an integer of at least 0', offset);
    const owner = await requireInboxOwner(this.inbox, input.environmentId, input.subscriberId);
    return this.inbox.list(owner, normalised(input.filter), { limit: input.limit, after: input.after, offset });
  }
}

/** How many of a subscriber's notifications match each filter (unread, unseen, per tag...). */
export class CountInboxNotifications {
  constructor(private readonly inbox: InboxRepository) {}

  async execute(environmentId: string, subscriberId: string, filters: InboxFilter[]): Promise<Array<{ count: number; filter: InboxFilter }>> {
    if (filters.length < 1 || filters.length > INBOX_COUNT_FILTERS_MAX) {
      throw DomainError.field('filters', `must list from 1 to ${INBOX_COUNT_FILTERS_MAX} filters`, filters.length);
    }
    const owner = await requireInboxOwner(this.inbox, environmentId, subscriberId);
    const counts = await this.inbox.count(owner, filters.map(normalised));
    return filters.map((filter, i) => ({ count: counts[i] ?? 0, filter }));
  }
}
