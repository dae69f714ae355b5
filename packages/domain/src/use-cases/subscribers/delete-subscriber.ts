import { DomainError } from '../../errors';
import type { SubscriberRepository } from '../../ports/subscriber-repository';

/** Deletes a subscriber with its subscriptions, preferences and endpoints; 404 when it does not exist. */
export class DeleteSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute(environmentId: string, subscriberId: string): Promise<void> {
    if (!(await this.subscribers.delete(environmentId, subscriberId))) {
      throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    }
  }
}
