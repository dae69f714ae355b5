import type { Subscriber } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberOrderBy, SubscriberRepository, SubscriberSearch } from '../../ports/subscriber-repository';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

/** Reads of subscribers, each a single repository call plus not-found handling. */
export class GetSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute(environmentId: string, subscriberId: string): Promise<Subscriber> {
    const found = await this.subscribers.findById(environmentId, subscriberId);
    if (!found) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return found;
  }
}

export class SearchSubscribers {
  constructor(private readonly subscribers: SubscriberRepository) {}

  execute(environmentId: string, filter: SubscriberSearch, page: CursorQuery<SubscriberOrderBy>): Promise<CursorPage<Subscriber>> {
    return this.subscribers.search(environmentId, filter, page);
  }
}
