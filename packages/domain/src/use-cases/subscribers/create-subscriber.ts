import type { Subscriber, SubscriberInput } from '../../entities/subscriber';
import { validateSubscriberAttributes } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberRepository } from '../../ports/subscriber-repository';

export interface CreateSubscriberInput {
  environmentId: string;
  subscriber: SubscriberInput;
  /** When true an existing subscriberId is a conflict; otherwise it is updated. */
  failIfExists: boolean;
}

export interface CreateSubscriberOutput {
  subscriber: Subscriber;
  created: boolean;
}

export class CreateSubscriber {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute({ environmentId, subscriber, failIfExists }: CreateSubscriberInput): Promise<CreateSubscriberOutput> {
    const errors = validateSubscriberAttributes(subscriber);
    if (Object.keys(errors).length) throw DomainError.validation(errors);

    const inserted = await this.subscribers.insert(environmentId, subscriber);
    if (inserted) return { subscriber: inserted, created: true };
    if (failIfExists) {
      throw new DomainError('SUBSCRIBER_ALREADY_EXISTS', `Subscriber '${subscriber.subscriberId}' already exists`);
    }
    const { subscriberId, ...changes } = subscriber;
    const updated = await this.subscribers.update(environmentId, subscriberId, changes);
    // Deleted between the insert attempt and the update: report it rather than guess.
    if (!updated) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return { subscriber: updated, created: false };
  }
}
