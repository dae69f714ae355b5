import type { ChannelConnection } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelConnectionFilter, ChannelConnectionOrderBy, ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

/** The error for an identifier that names none in the environment. */
export const channelConnectionNotFound = (identifier: string) => DomainError.notFound('CHANNEL_CONNECTION_NOT_FOUND', 'Channel connection', identifier);

/** Reads of channel connections: one repository call plus not-found handling each. */
export class GetChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(environmentId: string, identifier: string): Promise<ChannelConnection> {
    return (await this.connections.findByIdentifier(environmentId, identifier)) ?? Promise.reject(channelConnectionNotFound(identifier));
  }
}

export class ListChannelConnections {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  execute(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>> {
    return this.connections.list(environmentId, { ...filter, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }
}
