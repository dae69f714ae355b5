import { randomUUID } from 'node:crypto';
import type { ChannelConnection } from '../entities/channel-endpoint';
import type {
  ChannelConnectionFilter,
  ChannelConnectionOrderBy,
  ChannelConnectionRepository,
  ChatRoute,
  NewChannelConnection,
} from '../ports/channel-connection-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { boundFields, matchesChannelFilter } from './in-memory-channel-lookups';
import { cursorPage } from './in-memory-cursor-page';
import { InMemoryStore, remove, type ConnectionRow } from './in-memory-store';

/** The ChannelConnectionRepository double over the shared store; `channel-connection-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemoryChannelConnectionRepository implements ChannelConnectionRepository {
  constructor(readonly store = new InMemoryStore()) {}

  private row(environmentId: string, identifier: string) {
    return this.store.connections.find((c) => c.environmentId === environmentId && c.identifier === identifier);
  }

  private present(row: ConnectionRow): ChannelConnection {
    return structuredClone({
      ...boundFields(this.store, row),
      subscriberId: this.store.subscriberByRowId(row.subscriberRowId)?.subscriberId ?? null,
      workspace: row.workspace,
      auth: row.auth,
    });
  }

  async create(environmentId: string, input: NewChannelConnection) {
    if (this.row(environmentId, input.identifier)) return null;
    const now = this.store.now();
    const { subscriberRowId, ...rest } = structuredClone(input);
    const row: ConnectionRow = { ...rest, subscriberRowId, id: randomUUID(), environmentId, createdAt: now, updatedAt: now };
    this.store.connections.push(row);
    return this.present(row);
  }

  async findByIdentifier(environmentId: string, identifier: string) {
    const row = this.row(environmentId, identifier);
    return row ? this.present(row) : null;
  }

  async list(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>> {
    const matches = this.store.connections.filter(
      (c) =>
        matchesChannelFilter(this.store, environmentId, c, filter) &&
        (filter.connectionMode !== 'shared' || c.subscriberRowId === null) &&
        (filter.connectionMode !== 'subscriber' || c.subscriberRowId !== null),
    );
    const result = cursorPage(matches, page, (c) => c[page.orderBy]);
    return { ...result, data: result.data.map((c) => this.present(c)) };
  }

  async update(environmentId: string, identifier: string, changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>) {
    const row = this.row(environmentId, identifier);
    if (!row) return null;
    if (changes.workspace) row.workspace = structuredClone(changes.workspace);
    if (changes.auth) row.auth = structuredClone(changes.auth);
    row.updatedAt = this.store.now();
    return this.present(row);
  }

  async delete(environmentId: string, identifier: string) {
    const row = this.row(environmentId, identifier);
    if (!row) return false;
    for (const e of this.store.endpoints) if (e.environmentId === environmentId && e.connectionId === row.id) e.connectionId = null;
    remove(this.store.connections, (c) => c === row);
    return true;
  }

  async deliveryRoutes(environmentId: string, subscriberRowId: string, integrationIds: string[]): Promise<ChatRoute[]> {
    const byAge = (a: { createdAt: Date }, b: { createdAt: Date }) => a.createdAt.getTime() - b.createdAt.getTime();
    return this.store.endpoints
      .filter((e) => e.environmentId === environmentId && e.subscriberRowId === subscriberRowId && integrationIds.includes(e.integrationId))
      .sort(byAge)
      .map((e) => {
        // The endpoint's own connection, else the subscriber's, else a shared one of the integration.
        const own = this.store.connections.find((c) => c.id === e.connectionId);
        const fallback = this.store.connections
          .filter((c) => c.environmentId === environmentId && c.integrationId === e.integrationId && (c.subscriberRowId === e.subscriberRowId || c.subscriberRowId === null))
          .sort((a, b) => Number(a.subscriberRowId === null) - Number(b.subscriberRowId === null) || byAge(a, b))[0];
        const auth = (own ?? fallback)?.auth;
        return { integrationId: e.integrationId, type: e.type, endpoint: { ...e.endpoint }, accessToken: auth?.accessToken ?? null };
      });
  }
}
