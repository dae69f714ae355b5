import type { ChannelEndpoint } from '../../entities/channel-endpoint';
import { validateEndpoint } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelEndpointFilter, ChannelEndpointOrderBy, ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import { normaliseContextKeys } from '../../shared/context-keys';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

const notFound = (identifier: string) => DomainError.notFound('CHANNEL_ENDPOINT_NOT_FOUND', 'Channel endpoint', identifier);

/** Reads and single-step changes of channel endpoints: one repository call plus not-found handling each. */
export class GetChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string): Promise<ChannelEndpoint> {
    return (await this.endpoints.findByIdentifier(environmentId, identifier)) ?? Promise.reject(notFound(identifier));
  }
}

export class ListChannelEndpoints {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  execute(environmentId: string, filter: ChannelEndpointFilter, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>> {
    return this.endpoints.list(environmentId, { ...filter, contextKeys: normaliseContextKeys(filter.contextKeys) }, page);
  }
}

/** Replaces the address, validated against the endpoint's (unchangeable) type. */
export class UpdateChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string, endpoint: unknown): Promise<ChannelEndpoint> {
    const existing = await this.endpoints.findByIdentifier(environmentId, identifier);
    if (!existing) throw notFound(identifier);
    const errors = validateEndpoint(existing.type, endpoint);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    return (await this.endpoints.updateEndpoint(environmentId, identifier, endpoint as Record<string, string>)) ?? Promise.reject(notFound(identifier));
  }
}

export class DeleteChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string): Promise<void> {
    if (!(await this.endpoints.delete(environmentId, identifier))) throw notFound(identifier);
  }
}
