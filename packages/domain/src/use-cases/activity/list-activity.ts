import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX, type ActivityFilter, type ActivityNotification } from '../../entities/activity';
import { DomainError, type FieldErrors } from '../../errors';
import type { ActivityRepository } from '../../ports/activity-repository';
import { normaliseContextKeys } from '../../shared/context-keys';

export interface ListActivityInput {
  environmentId: string;
  filter: ActivityFilter;
  page?: number;
  limit?: number;
}

export interface ActivityList {
  notifications: ActivityNotification[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

/** Distinct non-empty values, or undefined when nothing is left to filter on. */
function values<T extends string>(list: T[] | undefined): T[] | undefined {
  const kept = [...new Set((list ?? []).map((v) => v.trim() as T).filter(Boolean))];
  return kept.length ? kept : undefined;
}

function text(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

/** Normalises the filters of the activity log (spec operation 21) and reads one page. */
export class ListActivity {
  constructor(private readonly activity: ActivityRepository) {}

  async execute(input: ListActivityInput): Promise<ActivityList> {
    const page = input.page ?? 0;
    const limit = input.limit ?? ACTIVITY_PAGE_DEFAULT;
    const { filter } = input;
    const errors: FieldErrors = {};
    if (!Number.isInteger(page) || page < 0) errors.page = { messages: ['must be an integer of at least 0'], value: page };
    if (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_PAGE_MAX) {
      errors.limit = { messages: [`must be an integer from 1 to ${ACTIVITY_PAGE_MAX}`], value: limit };
    }
    if (filter.after && filter.before && filter.after > filter.before) {
      errors.after = { messages: ['must not be later than before'], value: filter.after.toISOString() };
    }
    if (Object.keys(errors).length) throw DomainError.validation(errors);

    const contextKeys = values(filter.contextKeys);
    const normalised: ActivityFilter = {
      channels: values(filter.channels),
      templates: values(filter.templates),
      emails: values(filter.emails),
      subscriberIds: values(filter.subscriberIds),
      severity: values(filter.severity),
      statuses: values(filter.statuses),
      transactionId: text(filter.transactionId),
      topicKey: text(filter.topicKey),
      subscriptionId: text(filter.subscriptionId),
      contextKeys: contextKeys && normaliseContextKeys(contextKeys),
      after: filter.after,
      before: filter.before,
      search: text(filter.search),
    };
    const { notifications, hasMore } = await this.activity.list(input.environmentId, normalised, { page, limit });
    return { notifications, hasMore, page, pageSize: limit };
  }
}
