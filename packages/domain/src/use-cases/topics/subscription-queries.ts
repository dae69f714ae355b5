import type { TopicSubscription } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import type { SubscriptionOrderBy, TopicRepository } from '../../ports/topic-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';
import { WorkflowCatalog, type SubscriptionDetails } from './subscription-details';

/** A topic's subscriptions; 404 when the topic does not exist. */
export class ListTopicSubscriptions {
  constructor(private readonly topics: TopicRepository) {}

  async execute(
    environmentId: string,
    topicKey: string,
    filter: { subscriberId?: string; contextKeys?: string[] },
    page: CursorQuery<SubscriptionOrderBy>,
  ): Promise<CursorPage<TopicSubscription>> {
    if (!(await this.topics.findTopic(environmentId, topicKey))) throw DomainError.notFound('TOPIC_NOT_FOUND', 'Topic', topicKey);
    return this.topics.searchSubscriptions(
      environmentId,
      { topicKey, subscriberId: filter.subscriberId, contextKeys: normaliseContextKeys(filter.contextKeys) },
      page,
    );
  }
}

/** A subscriber's topic subscriptions; 404 when the subscriber does not exist. */
export class ListSubscriberSubscriptions {
  constructor(
    private readonly topics: TopicRepository,
    private readonly subscribers: SubscriberRepository,
  ) {}

  async execute(
    environmentId: string,
    subscriberId: string,
    filter: { topicKey?: string; contextKeys?: string[] },
    page: CursorQuery<SubscriptionOrderBy>,
  ): Promise<CursorPage<TopicSubscription>> {
    if (!(await this.subscribers.findById(environmentId, subscriberId))) {
      throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    }
    return this.topics.searchSubscriptions(
      environmentId,
      { subscriberId, topicKey: filter.topicKey, contextKeys: normaliseContextKeys(filter.contextKeys) },
      page,
    );
  }
}

/** One subscription with its rules as they apply to the environment's workflows. */
export class GetTopicSubscription {
  constructor(
    private readonly topics: TopicRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async execute(environmentId: string, topicKey: string, identifier: string): Promise<SubscriptionDetails> {
    const found = await this.topics.findSubscription(environmentId, topicKey, identifier);
    if (!found) throw DomainError.notFound('SUBSCRIPTION_NOT_FOUND', 'Subscription', identifier);
    const [details] = await new WorkflowCatalog(this.preferences, environmentId).describe([found]);
    return details;
  }
}
