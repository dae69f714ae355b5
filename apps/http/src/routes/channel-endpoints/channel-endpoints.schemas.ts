import { CHANNEL_TYPES, ENDPOINT_TYPES } from '@herald/domain';
import { z } from '@hono/zod-openapi';
import { ContextSchema } from '../../platform/schemas';

// The address is checked against its type by the domain, which names the exact field (endpoint.phoneNumber...).
const EndpointAddressSchema = z.record(z.string(), z.unknown()).openapi('EndpointAddress', {
  description:
    'By type: slack_channel {channelId}; slack_user {userId}; webhook {url, channel?}; phone {phoneNumber (E.164)}; ' +
    'ms_teams_channel {teamId, channelId}; ms_teams_user {userId}; telegram_chat {chatId}',
});

export const CreateChannelEndpointSchema = z
  .strictObject({
    identifier: z.string().min(1).optional(),
    subscriberId: z.string().min(1),
    createSubscriberIfMissing: z.boolean().optional(),
    context: ContextSchema.optional(),
    integrationIdentifier: z.string().min(1),
    connectionIdentifier: z.string().min(1).optional(),
    type: z.enum(ENDPOINT_TYPES),
    endpoint: EndpointAddressSchema,
  })
  .openapi('CreateChannelEndpointRequest');

export const UpdateChannelEndpointSchema = z.strictObject({ endpoint: EndpointAddressSchema }).openapi('UpdateChannelEndpointRequest');

export const ChannelEndpointSchema = z
  .object({
    identifier: z.string(),
    channel: z.enum(CHANNEL_TYPES).nullable(),
    providerId: z.string().nullable(),
    integrationIdentifier: z.string().nullable(),
    connectionIdentifier: z.string().nullable(),
    subscriberId: z.string().nullable(),
    contextKeys: z.array(z.string()),
    type: z.enum(ENDPOINT_TYPES),
    endpoint: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ChannelEndpoint');
