import type { ChannelConnection } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import { channelConnectionNotFound } from './channel-connection-queries';

/** Changes a connection's workspace or auth; an empty access token is refused. */
export class UpdateChannelConnection {
  constructor(private readonly connections: ChannelConnectionRepository) {}

  async execute(
    environmentId: string,
    identifier: string,
    changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>,
  ): Promise<ChannelConnection> {
    if (changes.auth && changes.auth.accessToken.trim() === '') throw DomainError.field('auth.accessToken', 'must not be empty');
    return (await this.connections.update(environmentId, identifier, changes)) ?? Promise.reject(channelConnectionNotFound(identifier));
  }
}
