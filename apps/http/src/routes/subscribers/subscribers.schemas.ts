import { z } from '@hono/zod-openapi';

const nullableString = z.string().nullable().optional();

export const SubscriberAttributesSchema = z.object({
  firstName: nullableString,
  lastName: nullableString,
  email: nullableString,
  phone: nullableString,
  avatar: nullableString,
  locale: nullableString,
  timezone: nullableString,
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const CreateSubscriberSchema = SubscriberAttributesSchema.extend({
  subscriberId: z.string().trim().min(1, 'subscriberId is required'),
}).openapi('CreateSubscriberRequest');

export const PatchSubscriberSchema = SubscriberAttributesSchema.openapi('PatchSubscriberRequest');

export const ChannelSettingsSchema = z.object({
  providerId: z.string(),
  integrationIdentifier: z.string().optional(),
  credentials: z.object({
    webhookUrl: z.string().optional(),
    channel: z.string().optional(),
    deviceTokens: z.array(z.string()).optional(),
    alertUid: z.string().optional(),
    title: z.string().optional(),
    imageUrl: z.string().optional(),
    state: z.string().optional(),
    externalUrl: z.string().optional(),
  }),
  _integrationId: z.string(),
});

export const SubscriberSchema = z
  .object({
    _id: z.string(),
    subscriberId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    avatar: z.string().nullable(),
    locale: z.string().nullable(),
    timezone: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    channels: z.array(ChannelSettingsSchema),
    isOnline: z.boolean().nullable(),
    lastOnlineAt: z.string().nullable(),
    __v: z.number(),
    _organizationId: z.string(),
    _environmentId: z.string(),
    deleted: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Subscriber');

export const BulkCreateSchema = z
  .object({
    // Items are validated one by one by the use case, so one bad item cannot fail the batch.
    subscribers: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi('BulkCreateSubscribersRequest');

export const BulkCreateResultSchema = z
  .object({
    updated: z.array(z.object({ subscriberId: z.string() })),
    created: z.array(z.object({ subscriberId: z.string() })),
    failed: z.array(z.object({ subscriberId: z.string().optional(), message: z.string() })),
  })
  .openapi('BulkCreateSubscribersResponse');
