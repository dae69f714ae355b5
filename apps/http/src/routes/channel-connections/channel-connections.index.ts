import {
  CreateChannelConnection,
  DeleteChannelConnection,
  GetChannelConnection,
  ListChannelConnections,
  UpdateChannelConnection,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { presentChannelConnection } from './channel-connections.presenter';
import * as routes from './channel-connections.routes';

export function channelConnectionsRouter(resolve: Resolver) {
  const createConnection = resolve.get(CreateChannelConnection);
  const getConnection = resolve.get(GetChannelConnection);
  const listConnections = resolve.get(ListChannelConnections);
  const updateConnection = resolve.get(UpdateChannelConnection);
  const deleteConnection = resolve.get(DeleteChannelConnection);

  return createRouter()
    .openapi(routes.create, async (c) => {
      const connection = await createConnection.execute({ environmentId: c.get('caller').environmentId, ...c.req.valid('json') });
      return c.json({ data: presentChannelConnection(connection) }, 201);
    })
    .openapi(routes.list, async (c) => {
      const { subscriberId, channel, providerId, integrationIdentifier, contextKeys, connectionMode, ...page } = c.req.valid('query');
      const result = await listConnections.execute(
        c.get('caller').environmentId,
        { subscriberId, channel, providerId, integrationIdentifier, contextKeys, connectionMode },
        toCursorQuery(page),
      );
      return c.json({ ...result, data: result.data.map(presentChannelConnection) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const connection = await getConnection.execute(c.get('caller').environmentId, c.req.valid('param').identifier);
      return c.json({ data: presentChannelConnection(connection) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const connection = await updateConnection.execute(c.get('caller').environmentId, c.req.valid('param').identifier, c.req.valid('json'));
      return c.json({ data: presentChannelConnection(connection) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteConnection.execute(c.get('caller').environmentId, c.req.valid('param').identifier);
      return c.body(null, 204);
    });
}
