import { randomUUID } from 'node:crypto';
import type { ChannelSettings, Subscriber, SubscriberAttributes, SubscriberInput } from '../entities/subscriber';
import type { SubscriberOrderBy, SubscriberRepository, SubscriberSearch, UpsertManyResult } from '../ports/subscriber-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { canonicalJson } from '../use-cases/idempotency/request-fingerprint';

/** A fake for domain tests; the repository contract test runs against it and the Prisma adapter alike. */
export class InMemorySubscriberRepository implements SubscriberRepository {
  readonly rows = new Map<string, Subscriber>();

  private key(environmentId: string, subscriberId: string) {
    return `${environmentId}/${subscriberId}`;
  }

  async findById(environmentId: string, subscriberId: string) {
    const row = this.rows.get(this.key(environmentId, subscriberId));
    return row ? { ...row } : null;
  }

  async insert(environmentId: string, input: SubscriberInput) {
    if (this.rows.has(this.key(environmentId, input.subscriberId))) return null;
    const now = new Date();
    const row: Subscriber = {
      id: randomUUID(),
      environmentId,
      subscriberId: input.subscriberId,
      firstName: null,
      lastName: null,
      email: null,
      phone: null,
      avatar: null,
      locale: null,
      timezone: null,
      data: null,
      channels: [],
      isOnline: null,
      lastOnlineAt: null,
      version: 0,
      deleted: false,
      createdAt: now,
      updatedAt: now,
    };
    this.apply(row, input);
    this.rows.set(this.key(environmentId, input.subscriberId), row);
    return { ...row };
  }

  async update(environmentId: string, subscriberId: string, changes: SubscriberAttributes & { channels?: ChannelSettings[] }) {
    const row = this.rows.get(this.key(environmentId, subscriberId));
    if (!row) return null;
    this.apply(row, changes);
    if (changes.channels) row.channels = changes.channels;
    row.version += 1;
    row.updatedAt = new Date();
    return { ...row };
  }

  async upsertMany(environmentId: string, inputs: SubscriberInput[]): Promise<UpsertManyResult> {
    const result: UpsertManyResult = { created: [], updated: [] };
    for (const input of inputs) {
      if (await this.insert(environmentId, input)) result.created.push(input.subscriberId);
      else {
        // As the SQL repository: an item that leaves every attribute as stored writes nothing (no new version).
        const { subscriberId, ...changes } = input;
        const stored = this.rows.get(this.key(environmentId, subscriberId))!;
        const after = { ...stored };
        this.apply(after, changes);
        // Only attributes can differ: the copy takes nothing else from the item.
        if (canonicalJson(after) !== canonicalJson(stored)) await this.update(environmentId, subscriberId, changes);
        result.updated.push(subscriberId);
      }
    }
    return result;
  }

  async setOnline(environmentId: string, subscriberId: string, isOnline: boolean, at: Date) {
    const row = this.rows.get(this.key(environmentId, subscriberId));
    if (!row) return null;
    Object.assign(row, { isOnline, lastOnlineAt: at, version: row.version + 1 });
    return { ...row };
  }

  async delete(environmentId: string, subscriberId: string) {
    return this.rows.delete(this.key(environmentId, subscriberId));
  }

  async removeDeviceTokens(environmentId: string, subscriberRowId: string, tokens: string[]) {
    let removed = 0;
    for (const row of this.rows.values()) {
      if (row.id !== subscriberRowId || row.environmentId !== environmentId) continue;
      for (const c of row.channels) {
        const kept = (c.credentials.deviceTokens ?? []).filter((t) => !tokens.includes(t));
        removed += (c.credentials.deviceTokens ?? []).length - kept.length;
        if (c.credentials.deviceTokens) c.credentials.deviceTokens = kept;
      }
    }
    return removed;
  }

  async search(environmentId: string, filter: SubscriberSearch, page: CursorQuery<SubscriberOrderBy>): Promise<CursorPage<Subscriber>> {
    const data = [...this.rows.values()]
      .filter((s) => s.environmentId === environmentId)
      .filter((s) => !filter.email || s.email?.startsWith(filter.email))
      .filter((s) => !filter.subscriberId || s.subscriberId.startsWith(filter.subscriberId))
      .slice(0, page.limit);
    return { data, next: null, previous: null, totalCount: data.length, totalCountCapped: false };
  }

  private apply(row: Subscriber, changes: SubscriberAttributes) {
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined && key !== 'subscriberId') (row as unknown as Record<string, unknown>)[key] = value;
    }
  }
}
