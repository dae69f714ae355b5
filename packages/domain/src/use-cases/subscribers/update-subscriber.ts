import type { Subscriber, SubscriberAttributes } from '../../entities/subscriber';
import { validateSubscriberAttributes } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberRepository } from '../../ports/subscriber-repository';

export interface UpdateSubscriberInput {
  environmentId: string;
  subscriberId: string;
  changes: SubscriberAttributes;
}

export class UpdateSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute({ environmentId, subscriberId, changes }: UpdateSubscriberInput): Promise<Subscriber> {
    const errors = validateSubscriberAttributes(changes);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    const updated = await this.subscribers.update(environmentId, subscriberId, changes);
    if (!updated) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return updated;
  }
}
