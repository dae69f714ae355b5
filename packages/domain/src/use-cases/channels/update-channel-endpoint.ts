import type { ChannelEndpoint } from '../../entities/channel-endpoint';
import { validateEndpoint } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import { channelEndpointNotFound } from './channel-endpoint-queries';

/** Replaces the address, validated against the endpoint's (unchangeable) type. */
export class UpdateChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string, endpoint: unknown): Promise<ChannelEndpoint> {
    const existing = await this.endpoints.findByIdentifier(environmentId, identifier);
    if (!existing) throw channelEndpointNotFound(identifier);
    const errors = validateEndpoint(existing.type, endpoint);
    if (Object.keys(errors).length) throw DomainError.validation(errors);
    return (await this.endpoints.updateEndpoint(environmentId, identifier, endpoint as Record<string, string>)) ?? Promise.reject(channelEndpointNotFound(identifier));
  }
}
