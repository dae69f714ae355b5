import { token } from '../shared/token';
import type { ChannelConnection, EndpointAddress, EndpointType } from '../entities/channel-endpoint';
import type { ChannelType } from '../entities/channel';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const ChannelConnectionRepository = token<ChannelConnectionRepository>('ChannelConnectionRepository');

export interface NewChannelConnection {
  identifier: string;
  integrationId: string;
  /** Internal subscriber id (the row id), or null for a shared connection. */
  subscriberRowId: string | null;
  contextKeys: string[];
  workspace: ChannelConnection['workspace'];
  auth: ChannelConnection['auth'];
}

/** List filters; contextKeys matches the stored (sorted) keys exactly. */
export interface ChannelConnectionFilter {
  subscriberId?: string;
  channel?: ChannelType;
  providerId?: string;
  integrationIdentifier?: string;
  contextKeys?: string[];
  /** `shared`: connections without a subscriber; `subscriber`: with one. */
  connectionMode?: 'subscriber' | 'shared';
}

export type ChannelConnectionOrderBy = 'createdAt' | 'updatedAt';

/** Channel connections of an environment; `auth` crosses decrypted, the adapter encrypts it at rest. */
export interface ChannelConnectionRepository {
  /** null when the identifier is taken. */
  create(environmentId: string, input: NewChannelConnection): Promise<ChannelConnection | null>;
  /** null when the environment has no connection with that identifier. */
  findByIdentifier(environmentId: string, identifier: string): Promise<ChannelConnection | null>;
  /**
   * Keyset pages (see CursorQuery), ties by id. A filter naming an unknown subscriber matches nothing;
   * an empty contextKeys filter is no filter.
   */
  list(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>>;
  /** Replaces workspace and/or auth; null when not found. */
  update(environmentId: string, identifier: string, changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>): Promise<ChannelConnection | null>;
  /** Endpoints using it keep existing without a connection; false when not found. */
  delete(environmentId: string, identifier: string): Promise<boolean>;
  /**
   * Where chat messages for a subscriber (by row id) go on these integrations: each of its endpoints,
   * with the access token of the endpoint's connection, else of the subscriber's or a shared
   * connection of the same integration (null when none). One round trip.
   */
  deliveryRoutes(environmentId: string, subscriberRowId: string, integrationIds: string[]): Promise<ChatRoute[]>;
}

export interface ChatRoute {
  integrationId: string;
  type: EndpointType;
  endpoint: EndpointAddress;
  accessToken: string | null;
}
