import type { Subscriber } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberOrderBy, SubscriberRepository, SubscriberSearch } from '../../ports/subscriber-repository';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

/** Reads and small state changes of one subscriber, each a single repository call plus not-found handling. */
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

export class DeleteSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute(environmentId: string, subscriberId: string): Promise<void> {
    if (!(await this.subscribers.delete(environmentId, subscriberId))) {
      throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    }
  }
}

export class SetSubscriberOnlineStatus {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(environmentId: string, subscriberId: string, isOnline: boolean): Promise<Subscriber> {
    const updated = await this.subscribers.setOnline(environmentId, subscriberId, isOnline, this.now());
    if (!updated) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return updated;
  }
}
