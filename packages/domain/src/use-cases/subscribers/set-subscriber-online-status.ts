import type { Subscriber } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberRepository } from '../../ports/subscriber-repository';

/** Records whether a subscriber is online (an Inbox connected) and since when. */
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
