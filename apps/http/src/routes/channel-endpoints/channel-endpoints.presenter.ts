import type { ChannelEndpoint } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { ChannelEndpointSchema } from './channel-endpoints.schemas';

export function presentChannelEndpoint(e: ChannelEndpoint): z.infer<typeof ChannelEndpointSchema> {
  return {
    identifier: e.identifier,
    channel: e.channel,
    providerId: e.providerId,
    integrationIdentifier: e.integrationIdentifier,
    connectionIdentifier: e.connectionIdentifier,
    subscriberId: e.subscriberId,
    contextKeys: e.contextKeys,
    type: e.type,
    endpoint: e.endpoint,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
