import type { SubscriberInput } from '../../entities/subscriber';
import { validateSubscriberAttributes } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { SubscriberRepository } from '../../ports/subscriber-repository';

export const BULK_SUBSCRIBERS_LIMIT = 500;

/** An item the caller's boundary could not read as a subscriber (a wrong type, an unknown key), with why. */
export interface UnreadableSubscriber {
  unreadable: string;
  subscriberId?: string;
}

export interface BulkCreateSubscribersInput {
  environmentId: string;
  /** In request order; an unreadable item is reported in `failed` in its place and stores nothing. */
  subscribers: Array<Partial<SubscriberInput> | UnreadableSubscriber>;
}

export interface BulkCreateSubscribersOutput {
  created: Array<{ subscriberId: string }>;
  updated: Array<{ subscriberId: string }>;
  failed: Array<{ subscriberId?: string; message: string }>;
}

/** Creates or updates up to 500 subscribers; an invalid item fails alone, the rest are written in one statement. */
export class BulkCreateSubscribers {
  constructor(private readonly subscribers: SubscriberRepository) {}

  async execute({ environmentId, subscribers }: BulkCreateSubscribersInput): Promise<BulkCreateSubscribersOutput> {
    if (subscribers.length > BULK_SUBSCRIBERS_LIMIT) {
      throw DomainError.field(
        'subscribers',
        `at most ${BULK_SUBSCRIBERS_LIMIT} subscribers per request, got ${subscribers.length}`,
      );
    }
    const failed: BulkCreateSubscribersOutput['failed'] = [];
    // A later item with the same subscriberId wins, as if the items were applied in order.
    const valid = new Map<string, SubscriberInput>();
    for (const item of subscribers) {
      if ('unreadable' in item) {
        failed.push({ subscriberId: item.subscriberId, message: item.unreadable });
        continue;
      }
      if (typeof item.subscriberId !== 'string' || item.subscriberId.trim() === '') {
        failed.push({ subscriberId: item.subscriberId, message: 'subscriberId is required' });
        continue;
      }
      const errors = validateSubscriberAttributes(item);
      const fields = Object.entries(errors);
      if (fields.length) {
        failed.push({
          subscriberId: item.subscriberId,
          message: fields.map(([field, e]) => `${field} ${e.messages.join(', ')}`).join('; '),
        });
        continue;
      }
      valid.set(item.subscriberId, { ...valid.get(item.subscriberId), ...(item as SubscriberInput) });
    }
    const { created, updated } = valid.size
      ? await this.subscribers.upsertMany(environmentId, [...valid.values()])
      : { created: [], updated: [] };
    return {
      created: created.map((subscriberId) => ({ subscriberId })),
      updated: updated.map((subscriberId) => ({ subscriberId })),
      failed,
    };
  }
}
