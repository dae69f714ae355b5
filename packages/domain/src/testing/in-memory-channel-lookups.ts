import type { ChannelType } from '../entities/channel';
import { toIntegrationBound, type IntegrationBound } from '../entities/channel-endpoint';
import { sameKeys, type ConnectionRow, type EndpointRow, type InMemoryStore } from './in-memory-store';

/** The fields connections and endpoints share, with their integration's identifier, provider and channel (deleted ones too). */
export function boundFields(store: InMemoryStore, row: ConnectionRow | EndpointRow): IntegrationBound {
  const bound = toIntegrationBound(row, store.integrations.find((i) => i.id === row.integrationId));
  return { ...bound, contextKeys: [...bound.contextKeys] };
}

/**
 * The list filters that name other rows, as the SQL adapters read them: an unknown subscriber
 * matches nothing, integration filters look at the environment's live integrations, and an empty
 * contextKeys filter is no filter.
 */
export function matchesChannelFilter(
  store: InMemoryStore,
  environmentId: string,
  row: ConnectionRow | EndpointRow,
  filter: { subscriberId?: string; channel?: ChannelType; providerId?: string; integrationIdentifier?: string; contextKeys?: string[] },
): boolean {
  if (row.environmentId !== environmentId) return false;
  if (filter.subscriberId !== undefined && row.subscriberRowId !== (store.subscriber(environmentId, filter.subscriberId)?.id ?? 'none')) return false;
  if (filter.channel || filter.providerId || filter.integrationIdentifier) {
    const integration = store.integrations.find((i) => i.id === row.integrationId && i.environmentId === environmentId && !i.deleted);
    if (!integration) return false;
    if (filter.channel && integration.channel !== filter.channel) return false;
    if (filter.providerId && integration.providerId !== filter.providerId) return false;
    if (filter.integrationIdentifier && integration.identifier !== filter.integrationIdentifier) return false;
  }
  return !filter.contextKeys?.length || sameKeys(row.contextKeys, filter.contextKeys);
}
