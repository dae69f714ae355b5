import type { ChannelConnection } from '../entities/channel-endpoint';
import type { ChannelType } from '../entities/channel';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const ChannelConnectionRepository = Symbol.for('ChannelConnectionRepository');

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
  findByIdentifier(environmentId: string, identifier: string): Promise<ChannelConnection | null>;
  list(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>>;
  /** Replaces workspace and/or auth; null when not found. */
  update(environmentId: string, identifier: string, changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>): Promise<ChannelConnection | null>;
  /** Endpoints using it keep existing without a connection; false when not found. */
  delete(environmentId: string, identifier: string): Promise<boolean>;
}
