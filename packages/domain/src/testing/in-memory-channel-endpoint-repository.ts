import { randomUUID } from 'node:crypto';
import type { ChannelEndpoint, EndpointAddress } from '../entities/channel-endpoint';
import type { ChannelEndpointFilter, ChannelEndpointOrderBy, ChannelEndpointRepository, NewChannelEndpoint } from '../ports/channel-endpoint-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { boundFields, matchesChannelFilter } from './in-memory-channel-lookups';
import { cursorPage } from './in-memory-cursor-page';
import { InMemoryStore, remove, type EndpointRow } from './in-memory-store';

/** The ChannelEndpointRepository double over the shared store; `channel-endpoint-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemoryChannelEndpointRepository implements ChannelEndpointRepository {
  constructor(readonly store = new InMemoryStore()) {}

  private row(environmentId: string, identifier: string) {
    return this.store.endpoints.find((e) => e.environmentId === environmentId && e.identifier === identifier);
  }

  private present(row: EndpointRow): ChannelEndpoint {
    const connection = this.store.connections.find((c) => c.id === row.connectionId);
    return structuredClone({
      ...boundFields(this.store, row),
      connectionId: row.connectionId,
      connectionIdentifier: row.connectionId ? (connection?.identifier ?? null) : null,
      subscriberId: this.store.subscriberByRowId(row.subscriberRowId)?.subscriberId ?? '',
      type: row.type,
      endpoint: row.endpoint,
    });
  }

  async create(environmentId: string, input: NewChannelEndpoint) {
    if (this.row(environmentId, input.identifier)) return null;
    const now = this.store.now();
    const row: EndpointRow = { ...structuredClone(input), id: randomUUID(), environmentId, createdAt: now, updatedAt: now };
    this.store.endpoints.push(row);
    return this.present(row);
  }

  async findByIdentifier(environmentId: string, identifier: string) {
    const row = this.row(environmentId, identifier);
    return row ? this.present(row) : null;
  }

  async list(environmentId: string, filter: ChannelEndpointFilter, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>> {
    const connection =
      filter.connectionIdentifier === undefined
        ? undefined
        : this.store.connections.find((c) => c.environmentId === environmentId && c.identifier === filter.connectionIdentifier);
    const matches = this.store.endpoints.filter(
      (e) =>
        matchesChannelFilter(this.store, environmentId, e, filter) &&
        (filter.connectionIdentifier === undefined || (connection !== undefined && e.connectionId === connection.id)),
    );
    const result = cursorPage(matches, page, (e) => e[page.orderBy]);
    return { ...result, data: result.data.map((e) => this.present(e)) };
  }

  async updateEndpoint(environmentId: string, identifier: string, endpoint: EndpointAddress) {
    const row = this.row(environmentId, identifier);
    if (!row) return null;
    Object.assign(row, { endpoint: { ...endpoint }, updatedAt: this.store.now() });
    return this.present(row);
  }

  async delete(environmentId: string, identifier: string) {
    return remove(this.store.endpoints, (e) => e.environmentId === environmentId && e.identifier === identifier) > 0;
  }
}
