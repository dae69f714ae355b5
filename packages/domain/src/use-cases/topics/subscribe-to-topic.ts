import {
  SUBSCRIPTION_CONTEXT_LIMIT,
  SUBSCRIPTIONS_PER_REQUEST_LIMIT,
  defaultSubscriptionIdentifier,
  normaliseSubscriptionPreferences,
  type SubscriptionPreferenceInput,
} from '../../entities/subscription';
import { validateTopicInput, type Topic } from '../../entities/topic';
import { DomainError } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import type { SubscribeItem, TopicRepository } from '../../ports/topic-repository';
import { toContextKeys } from '../../shared/context-keys';
import { WorkflowCatalog, type SubscriptionDetails } from './subscription-details';

export type SubscriptionTarget = string | { identifier?: string; subscriberId: string; name?: string };

export interface SubscribeToTopicInput {
  environmentId: string;
  topicKey: string;
  subscriptions?: SubscriptionTarget[];
  /** Deprecated: plain subscriber ids. */
  subscriberIds?: string[];
  /** The topic's name. */
  name?: string;
  context?: Record<string, string | { id: string }>;
  preferences?: SubscriptionPreferenceInput[];
}

export interface SubscriptionError {
  subscriberId: string;
  code: string;
  message: string;
}

export interface SubscribeToTopicOutput {
  topic: Topic;
  subscriptions: SubscriptionDetails[];
  errors: SubscriptionError[];
  meta: { totalCount: number; successful: number; failed: number };
}

/**
 * Subscribes up to 100 subscribers to a topic, creating the topic when missing. Unknown subscribers
 * fail alone (SUBSCRIBER_NOT_FOUND); the rest are written in one set-based statement.
 */
export class SubscribeToTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async execute(input: SubscribeToTopicInput): Promise<SubscribeToTopicOutput> {
    const items = this.items(input);
    const catalog = new WorkflowCatalog(this.preferences, input.environmentId);
    const rules = input.preferences && normaliseSubscriptionPreferences(input.preferences);
    if (rules) await catalog.assertReferencesExist(rules);

    // One item per identifier: a later duplicate wins, as if the items were applied in order.
    const unique = [...new Map(items.map((item) => [item.identifier, item])).values()];
    const result = await this.topics.subscribe(input.environmentId, { key: input.topicKey, name: input.name }, unique, rules);
    const saved = new Set(result.subscriptions.map((s) => s.identifier));
    const missing = new Set(result.missing);
    const errors: SubscriptionError[] = items
      .filter((item) => !saved.has(item.identifier))
      .map((item) =>
        missing.has(item.subscriberId)
          ? { subscriberId: item.subscriberId, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber '${item.subscriberId}' was not found` }
          : {
              subscriberId: item.subscriberId,
              code: 'SUBSCRIPTION_IDENTIFIER_CONFLICT',
              message: `Identifier '${item.identifier}' already belongs to another topic or subscriber`,
            },
      );
    return {
      topic: result.topic,
      subscriptions: await catalog.describe(result.subscriptions),
      errors,
      meta: { totalCount: items.length, successful: items.length - errors.length, failed: errors.length },
    };
  }

  private items(input: SubscribeToTopicInput): SubscribeItem[] {
    const targets: SubscriptionTarget[] = [...(input.subscriptions ?? []), ...(input.subscriberIds ?? [])];
    const field = input.subscriptions?.length ? 'subscriptions' : 'subscriberIds';
    if (targets.length > SUBSCRIPTIONS_PER_REQUEST_LIMIT) {
      throw DomainError.field(
        field,
        `at most ${SUBSCRIPTIONS_PER_REQUEST_LIMIT} subscriptions per request (subscriptions and subscriberIds together), got ${targets.length}`,
      );
    }
    if (!targets.length) throw DomainError.field('subscriptions', 'must list at least one subscriber');
    const topicErrors = validateTopicInput({ key: input.topicKey, name: input.name });
    if (topicErrors.key) throw DomainError.validation({ topicKey: topicErrors.key });
    if (topicErrors.name) throw DomainError.validation({ name: topicErrors.name });
    const context = input.context ?? {};
    if (Object.keys(context).length > SUBSCRIPTION_CONTEXT_LIMIT) {
      throw DomainError.field('context', `at most ${SUBSCRIPTION_CONTEXT_LIMIT} entries, got ${Object.keys(context).length}`);
    }
    const contextKeys = toContextKeys(context);
    return targets.map((target, i) => {
      const item = typeof target === 'string' ? { subscriberId: target } : target;
      if (item.subscriberId.trim() === '') throw DomainError.field(`subscriptions[${i}].subscriberId`, 'must not be empty', item.subscriberId);
      const identifier = item.identifier ?? defaultSubscriptionIdentifier(input.topicKey, item.subscriberId, contextKeys);
      if (identifier.trim() === '') throw DomainError.field(`subscriptions[${i}].identifier`, 'must not be empty', identifier);
      return { subscriberId: item.subscriberId, identifier, contextKeys, ...('name' in item && item.name !== undefined ? { name: item.name } : {}) };
    });
  }
}
