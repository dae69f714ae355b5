import type { ChannelConnection, ChannelEndpoint, EndpointType } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelConnectionFilter, ChannelConnectionOrderBy, ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import type { ChannelEndpointFilter, ChannelEndpointOrderBy, ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';
import type { CreateChannelConnection } from '../channels/create-channel-connection';
import type { CreateChannelEndpoint } from '../channels/create-channel-endpoint';

/** Who is asking: the Inbox session's subscriber (external id) in its environment. */
export interface InboxCaller {
  environmentId: string;
  subscriberId: string;
}

const connectionNotFound = (identifier: string) => DomainError.notFound('CHANNEL_CONNECTION_NOT_FOUND', 'Channel connection', identifier);
const endpointNotFound = (identifier: string) => DomainError.notFound('CHANNEL_ENDPOINT_NOT_FOUND', 'Channel endpoint', identifier);

/** A subscriber acts for themselves only: another subscriber named in a body is refused. */
function sameSubscriber(caller: InboxCaller, given: string | undefined): void {
  if (given !== undefined && given !== caller.subscriberId) {
    throw new DomainError('FORBIDDEN', `an Inbox session acts for subscriber '${caller.subscriberId}' only, not '${given}'`);
  }
}

/**
 * Channel connections from the Inbox: a subscriber sees, creates and deletes their own, and sees the
 * shared (workspace-level) ones of the environment (`connectionMode: 'shared'`), never another
 * subscriber's. The access token stays on the server (presenters leave `auth` out).
 */
export class InboxChannelConnections {
  constructor(
    private readonly connections: ChannelConnectionRepository,
    private readonly creator: CreateChannelConnection,
  ) {}

  list(caller: InboxCaller, filter: Omit<ChannelConnectionFilter, 'subscriberId'>, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>> {
    const scoped: ChannelConnectionFilter =
      filter.connectionMode === 'shared' ? { ...filter } : { ...filter, connectionMode: 'subscriber', subscriberId: caller.subscriberId };
    return this.connections.list(caller.environmentId, { ...scoped, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }

  /** The caller's own connection, or a shared one. */
  async get(caller: InboxCaller, identifier: string): Promise<ChannelConnection> {
    const found = await this.connections.findByIdentifier(caller.environmentId, identifier);
    if (!found || (found.subscriberId !== null && found.subscriberId !== caller.subscriberId)) throw connectionNotFound(identifier);
    return found;
  }

  create(caller: InboxCaller, input: { identifier?: string; subscriberId?: string; integrationIdentifier: string; context?: Record<string, string | { id: string }>; workspace: ChannelConnection['workspace']; auth: ChannelConnection['auth'] }): Promise<ChannelConnection> {
    sameSubscriber(caller, input.subscriberId);
    return this.creator.execute({ ...input, environmentId: caller.environmentId, subscriberId: caller.subscriberId, connectionMode: 'subscriber' });
  }

  /** Only the caller's own: a shared connection is the workspace's, not theirs to remove. */
  async delete(caller: InboxCaller, identifier: string): Promise<void> {
    const found = await this.connections.findByIdentifier(caller.environmentId, identifier);
    if (!found || found.subscriberId !== caller.subscriberId) throw connectionNotFound(identifier);
    await this.connections.delete(caller.environmentId, identifier);
  }
}

/** Channel endpoints from the Inbox: the subscriber's own, and only theirs. */
export class InboxChannelEndpoints {
  constructor(
    private readonly endpoints: ChannelEndpointRepository,
    private readonly creator: CreateChannelEndpoint,
  ) {}

  list(caller: InboxCaller, filter: Omit<ChannelEndpointFilter, 'subscriberId'>, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>> {
    return this.endpoints.list(caller.environmentId, { ...filter, subscriberId: caller.subscriberId, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }

  async get(caller: InboxCaller, identifier: string): Promise<ChannelEndpoint> {
    const found = await this.endpoints.findByIdentifier(caller.environmentId, identifier);
    if (!found || found.subscriberId !== caller.subscriberId) throw endpointNotFound(identifier);
    return found;
  }

  create(caller: InboxCaller, input: { identifier?: string; subscriberId?: string; integrationIdentifier: string; connectionIdentifier?: string; context?: Record<string, string | { id: string }>; type: EndpointType; endpoint: unknown }): Promise<ChannelEndpoint> {
    sameSubscriber(caller, input.subscriberId);
    return this.creator.execute({ ...input, environmentId: caller.environmentId, subscriberId: caller.subscriberId });
  }

  async delete(caller: InboxCaller, identifier: string): Promise<void> {
    await this.get(caller, identifier);
    await this.endpoints.delete(caller.environmentId, identifier);
  }
}
