import { z } from '@hono/zod-openapi';

const nullableString = z.string().nullable().optional();

export const SubscriberAttributesSchema = z.strictObject({
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

const credentialsShape = {
  webhookUrl: z.string().optional(),
  channel: z.string().optional(),
  deviceTokens: z.array(z.string()).optional(),
  alertUid: z.string().optional(),
  title: z.string().optional(),
  imageUrl: z.string().optional(),
  state: z.string().optional(),
  externalUrl: z.string().optional(),
};

export const ChannelSettingsSchema = z.object({
  providerId: z.string(),
  integrationIdentifier: z.string().optional(),
  credentials: z.object(credentialsShape),
  _integrationId: z.string(),
});

/** Channel settings as a request gives them (a trigger recipient's), before they are matched to an integration. */
export const ChannelSettingsInputSchema = z
  .strictObject({ providerId: z.string().min(1), integrationIdentifier: z.string().optional(), credentials: z.strictObject(credentialsShape) })
  .openapi('RecipientChannelSettings');

/** One integration's channel settings of a subscriber, as PUT and PATCH .../credentials set them. */
export const SubscriberCredentialsSchema = ChannelSettingsInputSchema;

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
  .strictObject({
    // Each item is read one by one with CreateSubscriberSchema, so one bad item fails alone.
    subscribers: z.array(z.record(z.string(), z.unknown()).openapi({ description: 'A CreateSubscriberRequest; an item that is not one is reported in `failed`' })),
  })
  .openapi('BulkCreateSubscribersRequest');

export const BulkCreateResultSchema = z
  .object({
    updated: z.array(z.object({ subscriberId: z.string() })),
    created: z.array(z.object({ subscriberId: z.string() })),
    failed: z.array(z.object({ subscriberId: z.string().optional(), message: z.string() })),
  })
  .openapi('BulkCreateSubscribersResponse');
