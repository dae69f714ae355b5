import type { ChannelType } from '../entities/channel';

export const IntegrationRepository = Symbol.for('IntegrationRepository');

/**
 * Provider integrations of an environment. Credentials cross this port decrypted; the adapter
 * encrypts them at rest.
 */
export interface IntegrationRepository {
  /** Channels that have at least one active, non-deleted integration in the environment. */
  activeChannels(environmentId: string): Promise<Set<ChannelType>>;
}
