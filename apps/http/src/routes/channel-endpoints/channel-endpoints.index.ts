import {
  CreateChannelEndpoint,
  DeleteChannelEndpoint,
  GetChannelEndpoint,
  ListChannelEndpoints,
  UpdateChannelEndpoint,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { presentChannelEndpoint } from './channel-endpoints.presenter';
import * as routes from './channel-endpoints.routes';

export function channelEndpointsRouter(resolve: Resolver) {
  const createEndpoint = resolve.get(CreateChannelEndpoint);
  const getEndpoint = resolve.get(GetChannelEndpoint);
  const listEndpoints = resolve.get(ListChannelEndpoints);
  const updateEndpoint = resolve.get(UpdateChannelEndpoint);
  const deleteEndpoint = resolve.get(DeleteChannelEndpoint);

  return createRouter()
    .openapi(routes.create, async (c) => {
      const endpoint = await createEndpoint.execute({ environmentId: c.get('caller').environmentId, ...c.req.valid('json') });
      return c.json({ data: presentChannelEndpoint(endpoint) }, 201);
    })
    .openapi(routes.list, async (c) => {
      const { subscriberId, contextKeys, channel, providerId, integrationIdentifier, connectionIdentifier, ...page } = c.req.valid('query');
      const result = await listEndpoints.execute(
        c.get('caller').environmentId,
        { subscriberId, contextKeys, channel, providerId, integrationIdentifier, connectionIdentifier },
        toCursorQuery(page),
      );
      return c.json({ ...result, data: result.data.map(presentChannelEndpoint) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const endpoint = await getEndpoint.execute(c.get('caller').environmentId, c.req.valid('param').identifier);
      return c.json({ data: presentChannelEndpoint(endpoint) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const { identifier } = c.req.valid('param');
      const endpoint = await updateEndpoint.execute(c.get('caller').environmentId, identifier, c.req.valid('json').endpoint);
      return c.json({ data: presentChannelEndpoint(endpoint) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteEndpoint.execute(c.get('caller').environmentId, c.req.valid('param').identifier);
      return c.body(null, 204);
    });
}
