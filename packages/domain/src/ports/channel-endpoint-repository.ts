import { token } from '../shared/token';
import type { ChannelType } from '../entities/channel';
import type { ChannelEndpoint, EndpointAddress, EndpointType } from '../entities/channel-endpoint';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const ChannelEndpointRepository = token<ChannelEndpointRepository>('ChannelEndpointRepository');

export interface NewChannelEndpoint {
  identifier: string;
  integrationId: string;
  connectionId: string | null;
  /** Internal subscriber id (the row id). */
  subscriberRowId: string;
  contextKeys: string[];
  type: EndpointType;
  endpoint: EndpointAddress;
}

/** List filters; contextKeys matches the stored (sorted) keys exactly. */
export interface ChannelEndpointFilter {
  subscriberId?: string;
  contextKeys?: string[];
  channel?: ChannelType;
  providerId?: string;
  integrationIdentifier?: string;
  connectionIdentifier?: string;
}

export type ChannelEndpointOrderBy = 'createdAt' | 'updatedAt';

export interface ChannelEndpointRepository {
  /** null when the identifier is taken. */
  create(environmentId: string, input: NewChannelEndpoint): Promise<ChannelEndpoint | null>;
  /** null when the environment has no endpoint with that identifier. */
  findByIdentifier(environmentId: string, identifier: string): Promise<ChannelEndpoint | null>;
  /**
   * Keyset pages (see CursorQuery), ties by id. A filter naming an unknown subscriber or connection
   * matches nothing; an empty contextKeys filter is no filter.
   */
  list(environmentId: string, filter: ChannelEndpointFilter, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>>;
  /** Replaces the address; null when not found. */
  updateEndpoint(environmentId: string, identifier: string, endpoint: EndpointAddress): Promise<ChannelEndpoint | null>;
  /** false when not found. */
  delete(environmentId: string, identifier: string): Promise<boolean>;
}
