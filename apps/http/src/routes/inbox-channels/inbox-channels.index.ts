import { DomainError, InboxChannelConnections, InboxChannelEndpoints, type ChannelConnection, type ChannelEndpoint, type InboxCaller } from '@herald/domain';
import type { Context } from 'hono';
import type { AppEnv, Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { inboxCaller } from '../inbox-topics/inbox-topics.index';
import * as routes from './inbox-channels.routes';

const presentConnection = (c: ChannelConnection) => ({
  identifier: c.identifier,
  workspace: { id: c.workspace.id, ...(c.workspace.name ? { name: c.workspace.name } : {}), ...(c.workspace.botUserId ? { botUserId: c.workspace.botUserId } : {}) },
  createdAt: c.createdAt.toISOString(),
});
const presentEndpoint = (e: ChannelEndpoint) => ({ identifier: e.identifier, type: e.type });

/** A `subscriberId` in a list query may only be the caller's own; an empty `contextKeys=` means none. */
function listArgs(c: Context<AppEnv>, caller: InboxCaller, q: { subscriberId?: string; contextKeys?: string[] }) {
  if (q.subscriberId !== undefined && q.subscriberId !== caller.subscriberId) {
    throw new DomainError('FORBIDDEN', `an Inbox session lists subscriber '${caller.subscriberId}'s channels only`);
  }
  return { contextKeys: q.contextKeys?.filter((k) => k !== '') };
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
      const caller = inboxCaller(c);
      const { subscriberId, contextKeys, connectionIdentifier: _unused, after, before, limit, orderDirection, orderBy, includeCursor, ...filter } = c.req.valid('query');
      const page = await connections.list(caller, { ...filter, ...listArgs(c, caller, { subscriberId, contextKeys }) }, toCursorQuery({ after, before, limit, orderDirection, orderBy, includeCursor }));
      return c.json({ data: page.data.map(presentConnection), next: page.next, previous: page.previous }, 200);
    })
    .openapi(routes.getConnection, async (c) => c.json({ data: presentConnection(await connections.get(inboxCaller(c), c.req.valid('param').identifier)) }, 200))
    .openapi(routes.createConnection, async (c) => c.json({ data: presentConnection(await connections.create(inboxCaller(c), c.req.valid('json'))) }, 201))
    .openapi(routes.deleteConnection, async (c) => {
      await connections.delete(inboxCaller(c), c.req.valid('param').identifier);
      return c.body(null, 204);
    })
    .openapi(routes.listEndpoints, async (c) => {
      const caller = inboxCaller(c);
      const { subscriberId, contextKeys, connectionMode: _unused, after, before, limit, orderDirection, orderBy, includeCursor, ...filter } = c.req.valid('query');
      const page = await endpoints.list(caller, { ...filter, ...listArgs(c, caller, { subscriberId, contextKeys }) }, toCursorQuery({ after, before, limit, orderDirection, orderBy, includeCursor }));
      return c.json({ data: page.data.map(presentEndpoint), next: page.next, previous: page.previous }, 200);
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
