import { z } from '@hono/zod-openapi';

// @novu/api also sends `data`; Herald keeps no topic data, so it is accepted and ignored.
const topicData = z.record(z.string(), z.unknown()).nullable().optional();

export const CreateTopicSchema = z
  .strictObject({
    key: z.string().trim().min(1, 'key is required'),
    name: z.string().optional(),
    data: topicData,
  })
  .openapi('CreateTopicRequest');

export const UpdateTopicSchema = z.strictObject({ name: z.string().optional(), data: topicData }).openapi('UpdateTopicRequest');

/** The create/update shape: no timestamps. */
export const TopicSummarySchema = z
  .object({ _id: z.string(), key: z.string(), name: z.string().optional() })
  .openapi('TopicSummary');

/** The list and retrieve shape. */
export const TopicSchema = TopicSummarySchema.extend({ createdAt: z.string(), updatedAt: z.string() }).openapi('Topic');

export const SubscriberSummarySchema = z
  .object({
    _id: z.string(),
    subscriberId: z.string(),
    avatar: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
  })
  .openapi('SubscriberSummary');

const condition = z.record(z.string(), z.unknown()).openapi({ description: 'A JSON Logic rule over {payload, subscriber, context}' });

/** A workflow id string, a workflow rule, or a group filter rule. */
export const SubscriptionPreferenceInputSchema = z.union([
  z.string(),
  z.strictObject({ workflowId: z.string(), enabled: z.boolean().optional(), condition: condition.optional() }),
  z.strictObject({
    filter: z.strictObject({ workflowIds: z.array(z.string()).optional(), tags: z.array(z.string()).optional() }),
    enabled: z.boolean().optional(),
    condition: condition.optional(),
  }),
]);

export const SubscriptionPreferenceSchema = z
  .object({
    subscriptionId: z.string(),
    workflow: z
      .object({
        id: z.string(),
        identifier: z.string(),
        name: z.string(),
        critical: z.boolean(),
        tags: z.array(z.string()),
        data: z.record(z.string(), z.unknown()).optional(),
        severity: z.enum(['high', 'medium', 'low', 'none']),
      })
      .nullable(),
    enabled: z.boolean(),
    condition: condition.optional(),
  })
  .openapi('SubscriptionPreference');

const subscriptionFields = {
  _id: z.string(),
  identifier: z.string(),
  contextKeys: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** The create/update shape of a subscription. */
export const SubscriptionSchema = z
  .object({
    ...subscriptionFields,
    name: z.string().optional(),
    topic: TopicSummarySchema,
    subscriber: SubscriberSummarySchema.nullable(),
    preferences: z.array(SubscriptionPreferenceSchema),
  })
  .openapi('TopicSubscription');

/** The list shape of a subscription. */
export const SubscriptionListItemSchema = z
  .object({ ...subscriptionFields, topic: TopicSchema, subscriber: SubscriberSummarySchema })
  .openapi('TopicSubscriptionListItem');

/** The retrieve shape of a subscription. */
export const SubscriptionDetailsSchema = z
  .object({
    id: z.string(),
    identifier: z.string(),
    name: z.string().optional(),
    preferences: z.array(SubscriptionPreferenceSchema),
    contextKeys: z.array(z.string()),
  })
  .openapi('TopicSubscriptionDetails');
