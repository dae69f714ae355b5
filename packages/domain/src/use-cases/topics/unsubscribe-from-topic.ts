import { SUBSCRIPTIONS_PER_REQUEST_LIMIT, type TopicSubscription } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { TopicRepository, UnsubscribeTarget } from '../../ports/topic-repository';
import type { SubscriptionError } from './subscribe-to-topic';

export interface UnsubscribeFromTopicInput {
  environmentId: string;
  topicKey: string;
  /** A subscriber id removes all of that subscriber's subscriptions on the topic; an identifier removes one. */
  subscriptions?: Array<string | UnsubscribeTarget>;
  /** Deprecated: plain subscriber ids. */
  subscriberIds?: string[];
}

export interface UnsubscribeFromTopicOutput {
  removed: TopicSubscription[];
  errors: SubscriptionError[];
  meta: { totalCount: number; successful: number; failed: number };
}

/** Removes up to 100 subscriptions from a topic in one statement; targets that match nothing are reported. */
export class UnsubscribeFromTopic {
  constructor(private readonly topics: TopicRepository) {}

  async execute(input: UnsubscribeFromTopicInput): Promise<UnsubscribeFromTopicOutput> {
    const raw = [...(input.subscriptions ?? []), ...(input.subscriberIds ?? [])];
    if (raw.length > SUBSCRIPTIONS_PER_REQUEST_LIMIT) {
      throw DomainError.field('subscriptions', `at most ${SUBSCRIPTIONS_PER_REQUEST_LIMIT} subscriptions per request, got ${raw.length}`);
    }
    if (!raw.length) throw DomainError.field('subscriptions', 'must list at least one subscription');
    const targets = raw.map((item, i): UnsubscribeTarget => {
      const target = typeof item === 'string' ? { subscriberId: item } : item;
      if (!target.subscriberId && !target.identifier) {
        throw DomainError.field(`subscriptions[${i}]`, 'needs a subscriberId or an identifier', item);
      }
      return target;
    });
    const result = await this.topics.unsubscribe(input.environmentId, input.topicKey, targets);
    if (!result) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', input.topicKey);
    const errors = result.notFound.map((target) => ({
      subscriberId: target.subscriberId ?? target.identifier ?? '',
      code: 'SUBSCRIPTION_NOT_FOUND',
      message: target.identifier
        ? `Subscription '${target.identifier}' was not found on topic '${input.topicKey}'`
        : `Subscriber '${target.subscriberId}' has no subscription to topic '${input.topicKey}'`,
    }));
    return {
      removed: result.removed,
      errors,
      meta: { totalCount: targets.length, successful: targets.length - errors.length, failed: errors.length },
    };
  }
}
