import type { ChannelEndpoint } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelEndpointFilter, ChannelEndpointOrderBy, ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

/** The error for an identifier that names none in the environment. */
export const channelEndpointNotFound = (identifier: string) => DomainError.notFound('CHANNEL_ENDPOINT_NOT_FOUND', 'Channel endpoint', identifier);

/** Reads of channel endpoints: one repository call plus not-found handling each. */
export class GetChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string): Promise<ChannelEndpoint> {
    return (await this.endpoints.findByIdentifier(environmentId, identifier)) ?? Promise.reject(channelEndpointNotFound(identifier));
  }
}

export class ListChannelEndpoints {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  execute(environmentId: string, filter: ChannelEndpointFilter, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>> {
    return this.endpoints.list(environmentId, { ...filter, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }
}
