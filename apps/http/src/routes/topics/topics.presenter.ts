import type { SubscriberSummary, SubscriptionDetails, Topic, TopicSubscription } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { RemovedSubscriptionSchema } from './topic-subscriptions.schemas';
import type {
  SubscriberSummarySchema,
  SubscriptionDetailsSchema,
  SubscriptionListItemSchema,
  SubscriptionPreferenceSchema,
  SubscriptionSchema,
  TopicSchema,
  TopicSummarySchema,
} from './topics.schemas';

// The interface's optional strings are absent, never null.
const optional = (value: string | null) => (value === null ? {} : { name: value });

export function presentTopicSummary(t: Topic): z.infer<typeof TopicSummarySchema> {
  return { _id: t.id, key: t.key, ...optional(t.name) };
}

export function presentTopic(t: Topic): z.infer<typeof TopicSchema> {
  return { ...presentTopicSummary(t), createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

function presentSubscriber(s: SubscriberSummary): z.infer<typeof SubscriberSummarySchema> {
  return { _id: s.id, subscriberId: s.subscriberId, avatar: s.avatar, firstName: s.firstName, lastName: s.lastName, email: s.email };
}

function presentPreferences({ subscription, preferences }: SubscriptionDetails): Array<z.infer<typeof SubscriptionPreferenceSchema>> {
  return preferences.map((p) => presentSubscriptionPreference(subscription.id, p));
}

/** One workflow's preference of a subscription. */
export function presentSubscriptionPreference(
  subscriptionId: string,
  { workflow, enabled, condition }: SubscriptionDetails['preferences'][number],
): z.infer<typeof SubscriptionPreferenceSchema> {
  return {
    subscriptionId,
    workflow: {
      id: workflow.id,
      identifier: workflow.identifier,
      name: workflow.name,
      critical: workflow.critical,
      tags: workflow.tags,
      ...(workflow.data ? { data: workflow.data } : {}),
      severity: workflow.severity,
    },
    enabled,
    ...(condition !== undefined ? { condition } : {}),
  };
}

/** The create/update shape. */
export function presentSubscription(details: SubscriptionDetails): z.infer<typeof SubscriptionSchema> {
  const s = details.subscription;
  return {
    _id: s.id,
    identifier: s.identifier,
    ...optional(s.name),
    topic: presentTopicSummary(s.topic),
    subscriber: presentSubscriber(s.subscriber),
    preferences: presentPreferences(details),
    contextKeys: s.contextKeys,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export function presentSubscriptionListItem(s: TopicSubscription): z.infer<typeof SubscriptionListItemSchema> {
  return {
    _id: s.id,
    identifier: s.identifier,
    topic: presentTopic(s.topic),
    subscriber: presentSubscriber(s.subscriber),
    contextKeys: s.contextKeys,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export function presentRemovedSubscription(s: TopicSubscription): z.infer<typeof RemovedSubscriptionSchema> {
  return { ...presentSubscriptionListItem(s), topic: presentTopicSummary(s.topic) };
}

/** The retrieve shape. */
export function presentSubscriptionDetails(details: SubscriptionDetails): z.infer<typeof SubscriptionDetailsSchema> {
  const s = details.subscription;
  return { id: s.id, identifier: s.identifier, ...optional(s.name), preferences: presentPreferences(details), contextKeys: s.contextKeys };
}
