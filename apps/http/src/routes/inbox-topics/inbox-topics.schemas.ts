import { z } from '@hono/zod-openapi';
import { CHANNEL_TYPES } from '@herald/domain';
import { queryArray } from '../../platform/schemas';
import { SubscriptionPreferenceInputSchema } from '../topics/topics.schemas';

export const TopicParams = z.object({ topicKey: z.string().min(1) });
export const SubscriptionParams = TopicParams.extend({ identifier: z.string().min(1) });
export const SubscriptionPreferenceParams = z.object({ subscriptionIdentifier: z.string().min(1), workflowId: z.string().min(1) });

/** `?workflowIds=a&workflowIds=b&tags=x`: narrows the preferences returned. */
export const SubscriptionQuerySchema = z.object({ workflowIds: queryArray(z.string()), tags: queryArray(z.string()) });

/** What `@novu/js` posts: an empty identifier asks for the default one. */
export const CreateInboxSubscriptionSchema = z
  .object({
    identifier: z.string().optional(),
    name: z.string().optional(),
    topic: z.object({ name: z.string().optional() }).strict().optional(),
    preferences: z.array(SubscriptionPreferenceInputSchema).optional(),
  })
  .strict()
  .openapi('InboxSubscriptionCreateRequest');

export const UpdateInboxSubscriptionSchema = z
  .object({ name: z.string().optional(), preferences: z.array(SubscriptionPreferenceInputSchema).optional() })
  .strict()
  .openapi('InboxSubscriptionUpdateRequest');

const channelFlags = Object.fromEntries(CHANNEL_TYPES.map((c) => [c, z.boolean().optional()])) as Record<(typeof CHANNEL_TYPES)[number], z.ZodOptional<z.ZodBoolean>>;

/**
 * One workflow of a subscription on or off, or under a condition. The client also sends every
 * channel with the same value: without `enabled`, the workflow is on when any channel is.
 */
export const SubscriptionPreferenceBodySchema = z
  .object({
    enabled: z.boolean().optional(),
    condition: z.record(z.string(), z.unknown()).optional().openapi({ description: 'A JSON Logic rule over {payload, subscriber, context}' }),
    ...channelFlags,
  })
  .strict()
  .openapi('InboxSubscriptionPreferenceRequest');
