import { z } from '@hono/zod-openapi';
import { ContextSchema } from '../../platform/schemas';
import {
  SubscriberSummarySchema,
  SubscriptionListItemSchema,
  SubscriptionPreferenceInputSchema,
  SubscriptionSchema,
  TopicSummarySchema,
} from './topics.schemas';

export const CreateSubscriptionsSchema = z
  .strictObject({
    subscriberIds: z.array(z.string()).optional().openapi({ deprecated: true }),
    subscriptions: z
      .array(z.union([z.string(), z.strictObject({ identifier: z.string().min(1).optional(), subscriberId: z.string(), name: z.string().optional() })]))
      .optional(),
    name: z.string().optional(),
    context: ContextSchema.optional(),
    preferences: z.array(SubscriptionPreferenceInputSchema).optional(),
  })
  .openapi('CreateTopicSubscriptionsRequest');

export const UpdateSubscriptionSchema = z
  .strictObject({ name: z.string().optional(), preferences: z.array(SubscriptionPreferenceInputSchema).optional() })
  .openapi('UpdateTopicSubscriptionRequest');

export const DeleteSubscriptionsSchema = z
  .strictObject({
    subscriberIds: z.array(z.string()).optional().openapi({ deprecated: true }),
    subscriptions: z.array(z.union([z.string(), z.strictObject({ identifier: z.string().optional(), subscriberId: z.string().optional() })])).optional(),
  })
  .openapi('DeleteTopicSubscriptionsRequest');

const MetaSchema = z.object({ totalCount: z.number(), successful: z.number(), failed: z.number() });
const ItemErrorSchema = z.object({ subscriberId: z.string(), code: z.string(), message: z.string() });

export const CreateSubscriptionsResultSchema = z
  .object({ data: z.array(SubscriptionSchema), meta: MetaSchema, errors: z.array(ItemErrorSchema).optional() })
  .openapi('CreateTopicSubscriptionsResponse');

/** A removed subscription: the list shape with the summary topic. */
// Spread, not .extend(): the OpenAPI generator renders extending a named schema as allOf, which
// would require the list item's full topic (createdAt...) as well as the summary given here.
export const RemovedSubscriptionSchema = z
  .object({ ...SubscriptionListItemSchema.shape, topic: TopicSummarySchema, subscriber: SubscriberSummarySchema.nullable() })
  .openapi('RemovedTopicSubscription');

export const DeleteSubscriptionsResultSchema = z
  .object({ data: z.array(RemovedSubscriptionSchema), meta: MetaSchema, errors: z.array(ItemErrorSchema).optional() })
  .openapi('DeleteTopicSubscriptionsResponse');
