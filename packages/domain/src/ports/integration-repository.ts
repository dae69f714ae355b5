import { token } from '../shared/token';
import type { ChannelType } from '../entities/channel';
import type { Integration, IntegrationChanges, NewIntegration } from '../entities/integration';
import type { BuiltInIntegration } from '../entities/provider-catalogue';

export const IntegrationRepository = token<IntegrationRepository>('IntegrationRepository');

/**
 * Provider integrations of an environment. Credentials cross this port decrypted; the adapter
 * encrypts them at rest. Deleted integrations are invisible to every method but `softDelete`.
 */
export interface IntegrationRepository {
  /** Channels that have at least one active, non-deleted integration in the environment. */
  activeChannels(environmentId: string): Promise<Set<ChannelType>>;
  /** Non-deleted integrations, oldest first (ties by identifier); `activeOnly` drops inactive ones. */
  list(environmentId: string, options?: { activeOnly?: boolean }): Promise<Integration[]>;
  /** By internal id or by identifier; null when neither names a live integration. */
  find(environmentId: string, idOrIdentifier: string): Promise<Integration | null>;
  /**
   * Inserts; null when the identifier is taken. A primary newcomer demotes the channel's current
   * primary in the same transaction.
   */
  create(environmentId: string, input: NewIntegration): Promise<Integration | null>;
  /** Applies the defined changes; null when not found; throws INTEGRATION_ALREADY_EXISTS on an identifier clash. */
  update(environmentId: string, id: string, changes: IntegrationChanges): Promise<Integration | null>;
  /**
   * Makes it the active primary of its channel, clearing the old primary in one transaction; null when
   * not found. `id` here and in update and softDelete is an internal id, as `find` returns it.
   */
  setPrimary(environmentId: string, id: string): Promise<Integration | null>;
  /** Marks it deleted (irreversible; the row stays); false when not found. */
  softDelete(environmentId: string, id: string, deletedBy?: string): Promise<boolean>;
  /** Active integrations that can deliver on a channel: the primary first, then by priority and age. */
  findDeliveryCandidates(environmentId: string, channel: ChannelType): Promise<Integration[]>;
  /**
   * Creates each built-in in each environment unless an integration (even a deleted one) of that
   * provider exists there; a built-in becomes primary only where its channel has none. Idempotent.
   */
  ensureBuiltIns(environmentIds: string[], builtIns: readonly BuiltInIntegration[]): Promise<number>;
  /** Soft-deletes the live integrations of these providers in these environments; returns how many. */
  retireBuiltIns(environmentIds: string[], providerIds: string[]): Promise<number>;
}
