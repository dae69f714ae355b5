import { DomainError, InboxChannelConnections, InboxChannelEndpoints, type ChannelConnection, type ChannelEndpoint, type InboxCaller } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { inboxCaller } from '../inbox-topics/inbox-topics.index';
import * as routes from './inbox-channels.routes';
import type { InboxChannelListQuerySchema } from './inbox-channels.schemas';

const presentConnection = (c: ChannelConnection) => ({
  identifier: c.identifier,
  workspace: { id: c.workspace.id, ...(c.workspace.name ? { name: c.workspace.name } : {}), ...(c.workspace.botUserId ? { botUserId: c.workspace.botUserId } : {}) },
  createdAt: c.createdAt.toISOString(),
});
const presentEndpoint = (e: ChannelEndpoint) => ({ identifier: e.identifier, type: e.type });

type ListQuery = z.infer<typeof InboxChannelListQuerySchema>;

/**
 * A list query as the filter and page of the caller's own channels: a `subscriberId` may only be
 * the caller's own, and an empty `contextKeys=` (the client's "none") means no context.
 */
function listArgs(caller: InboxCaller, q: ListQuery) {
  const { subscriberId, contextKeys, after, before, limit, orderDirection, orderBy, includeCursor, ...filter } = q;
  if (subscriberId !== undefined && subscriberId !== caller.subscriberId) {
    throw new DomainError('FORBIDDEN', `an Inbox session lists subscriber '${caller.subscriberId}'s channels only`);
  }
  return { filter: { ...filter, contextKeys: contextKeys?.filter((k) => k !== '') }, page: toCursorQuery({ after, before, limit, orderDirection, orderBy, includeCursor }) };
}

/**
 * Chat connections and endpoints from the Inbox (`@novu/js` `novu.channelConnections` and
 * `novu.channelEndpoints`), for the session's subscriber only; mounted after the Inbox router, which
 * authenticates. Tokens never reach the browser.
 */
export function inboxChannelsRouter(resolve: Resolver) {
  const connections = resolve.get(InboxChannelConnections);
  const endpoints = resolve.get(InboxChannelEndpoints);
  const router = createRouter()
    .openapi(routes.listConnections, async (c) => {
      const { filter: { connectionIdentifier: _unused, ...filter }, page } = listArgs(inboxCaller(c), c.req.valid('query'));
      const found = await connections.list(inboxCaller(c), filter, page);
      return c.json({ data: found.data.map(presentConnection), next: found.next, previous: found.previous }, 200);
    })
    .openapi(routes.getConnection, async (c) => c.json({ data: presentConnection(await connections.get(inboxCaller(c), c.req.valid('param').identifier)) }, 200))
    .openapi(routes.createConnection, async (c) => c.json({ data: presentConnection(await connections.create(inboxCaller(c), c.req.valid('json'))) }, 201))
    .openapi(routes.deleteConnection, async (c) => {
      await connections.delete(inboxCaller(c), c.req.valid('param').identifier);
      return c.body(null, 204);
    })
    .openapi(routes.listEndpoints, async (c) => {
      const { filter: { connectionMode: _unused, ...filter }, page } = listArgs(inboxCaller(c), c.req.valid('query'));
      const found = await endpoints.list(inboxCaller(c), filter, page);
      return c.json({ data: found.data.map(presentEndpoint), next: found.next, previous: found.previous }, 200);
    })
    .openapi(routes.getEndpoint, async (c) => c.json({ data: presentEndpoint(await endpoints.get(inboxCaller(c), c.req.valid('param').identifier)) }, 200))
    .openapi(routes.createEndpoint, async (c) => c.json({ data: presentEndpoint(await endpoints.create(inboxCaller(c), c.req.valid('json'))) }, 201))
    .openapi(routes.deleteEndpoint, async (c) => {
      await endpoints.delete(inboxCaller(c), c.req.valid('param').identifier);
      return c.body(null, 204);
    });
  for (const path of routes.OAUTH_PATHS) {
    router.openapi(routes.oauth(path), async (c) => {
      const { integrationIdentifier } = c.req.valid('json');
      throw new DomainError(
        'BAD_REQUEST',
        `Herald runs no provider OAuth or link flow for integration '${integrationIdentifier}': connect the subscriber with the access token your application obtained (POST /v1/inbox/channel-connections with workspace and auth), or add an endpoint (POST /v1/inbox/channel-endpoints)`,
      );
    });
  }
  return router;
}
