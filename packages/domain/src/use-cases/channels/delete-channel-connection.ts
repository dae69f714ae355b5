import type { ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import { channelConnectionNotFound } from './channel-connection-queries';

/** Deletes a channel connection; 404 when the identifier names none. */
export class DeleteChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(environmentId: string, identifier: string): Promise<void> {
    if (!(await this.connections.delete(environmentId, identifier))) throw channelConnectionNotFound(identifier);
  }
}
