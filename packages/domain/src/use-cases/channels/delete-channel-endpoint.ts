import type { ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import { channelEndpointNotFound } from './channel-endpoint-queries';

/** Deletes a channel endpoint; 404 when the identifier names none. */
export class DeleteChannelEndpoint {
  constructor(private readonly endpoints: ChannelEndpointRepository) {}

  async execute(environmentId: string, identifier: string): Promise<void> {
    if (!(await this.endpoints.delete(environmentId, identifier))) throw channelEndpointNotFound(identifier);
  }
}
