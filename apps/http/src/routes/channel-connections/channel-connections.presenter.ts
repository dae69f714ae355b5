import type { ChannelConnection } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { ChannelConnectionSchema } from './channel-connections.schemas';

/** The access token is returned: the interface says so, and the caller is the one who stored it. */
export function presentChannelConnection(c: ChannelConnection): z.infer<typeof ChannelConnectionSchema> {
  return {
    identifier: c.identifier,
    channel: c.channel,
    providerId: c.providerId,
    integrationIdentifier: c.integrationIdentifier,
    subscriberId: c.subscriberId,
    contextKeys: c.contextKeys,
    workspace: c.workspace,
    auth: c.auth,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
