import type { ChannelConnection } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type {
  ChannelConnectionFilter,
  ChannelConnectionOrderBy,
  ChannelConnectionRepository,
} from '../../ports/channel-connection-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

const notFound = (identifier: string) => DomainError.notFound('CHANNEL_CONNECTION_NOT_FOUND', 'Channel connection', identifier);

/** Reads and single-step changes of channel connections: one repository call plus not-found handling each. */
export class GetChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(environmentId: string, identifier: string): Promise<ChannelConnection> {
    return (await this.connections.findByIdentifier(environmentId, identifier)) ?? Promise.reject(notFound(identifier));
  }
}

export class ListChannelConnections {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  execute(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>> {
    return this.connections.list(environmentId, { ...filter, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }
}

export class UpdateChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(
    environmentId: string,
    identifier: string,
    changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>,
  ): Promise<ChannelConnection> {
    if (changes.auth && changes.auth.accessToken.trim() === '') throw DomainError.field('auth.accessToken', 'must not be empty');
    return (await this.connections.update(environmentId, identifier, changes)) ?? Promise.reject(notFound(identifier));
  }
}

export class DeleteChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(environmentId: string, identifier: string): Promise<void> {
    if (!(await this.connections.delete(environmentId, identifier))) throw notFound(identifier);
  }
}
