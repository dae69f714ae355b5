import { randomUUID } from 'node:crypto';
import type { ChannelSettings, Subscriber, SubscriberAttributes, SubscriberInput } from '../entities/subscriber';
import type { SubscriberOrderBy, SubscriberRepository, SubscriberSearch, UpsertManyResult } from '../ports/subscriber-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { canonicalJson } from '../use-cases/idempotency/request-fingerprint';
import { cursorPage } from './in-memory-cursor-page';
import { InMemoryStore } from './in-memory-store';

const ATTRIBUTES = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

/** Stored channel settings with an item's merged in, as the SQL upsert merges them (see `upsertMany`). */
function mergeChannels(stored: ChannelSettings[], given: ChannelSettings[]): ChannelSettings[] {
  const merged = stored.map((old) => {
    const next = given.find((g) => g._integrationId === old._integrationId);
    if (!next) return old;
    const credentials = { ...old.credentials, ...next.credentials };
    if (old.credentials.deviceTokens && next.credentials.deviceTokens) {
      credentials.deviceTokens = [...new Set([...old.credentials.deviceTokens, ...next.credentials.deviceTokens])];
    }
    return { ...next, credentials };
  });
  return [...merged, ...given.filter((g) => !stored.some((old) => old._integrationId === g._integrationId))];
}

/** The SubscriberRepository double; `subscriber-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemorySubscriberRepository implements SubscriberRepository {
  constructor(readonly store = new InMemoryStore()) {}

  get rows(): Map<string, Subscriber> {
    return this.store.subscribers;
  }

  async findById(environmentId: string, subscriberId: string) {
    const row = this.store.subscriber(environmentId, subscriberId);
    return row ? structuredClone(row) : null;
  }

  async insert(environmentId: string, input: SubscriberInput) {
    if (this.store.subscriber(environmentId, input.subscriberId)) return null;
    const now = this.store.now();
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
      channels: structuredClone(input.channels ?? []),
      isOnline: null,
      lastOnlineAt: null,
      version: 0,
      deleted: false,
      createdAt: now,
      updatedAt: now,
    };
    this.apply(row, input);
    this.rows.set(`${environmentId}/${input.subscriberId}`, row);
    return structuredClone(row);
  }

  async update(environmentId: string, subscriberId: string, changes: SubscriberAttributes & { channels?: ChannelSettings[] }) {
    const row = this.store.subscriber(environmentId, subscriberId);
    if (!row) return null;
    this.apply(row, changes);
    if (changes.channels) row.channels = structuredClone(changes.channels);
    return this.touch(row);
  }

  async upsertMany(environmentId: string, inputs: SubscriberInput[]): Promise<UpsertManyResult> {
    const result: UpsertManyResult = { created: [], updated: [] };
    // Of several items for one subscriber only the last applies.
    const last = new Map(inputs.map((input) => [input.subscriberId, input]));
    for (const input of last.values()) {
      const stored = this.store.subscriber(environmentId, input.subscriberId);
      if (!stored) {
        await this.insert(environmentId, input);
        result.created.push(input.subscriberId);
        continue;
      }
      const after = structuredClone(stored);
      this.apply(after, input);
      if (input.channels) after.channels = mergeChannels(stored.channels, input.channels);
      // An item that leaves every attribute as stored writes nothing (no new version).
      if (canonicalJson(after) !== canonicalJson(stored)) this.touch(Object.assign(stored, after));
      result.updated.push(input.subscriberId);
    }
    return result;
  }

  async setOnline(environmentId: string, subscriberId: string, isOnline: boolean, at: Date) {
    const row = this.store.subscriber(environmentId, subscriberId);
    if (!row) return null;
    Object.assign(row, { isOnline, lastOnlineAt: at });
    return this.touch(row);
  }

  async delete(environmentId: string, subscriberId: string) {
    const row = this.store.subscriber(environmentId, subscriberId);
    if (!row) return false;
    this.rows.delete(`${environmentId}/${subscriberId}`);
    this.store.cascadeSubscriber(row.id);
    return true;
  }

  async removeDeviceTokens(environmentId: string, subscriberRowId: string, tokens: string[]) {
    const row = this.store.subscriberByRowId(subscriberRowId);
    if (!row || row.environmentId !== environmentId) return 0;
    let removed = 0;
    for (const c of row.channels) {
      if (!Array.isArray(c.credentials.deviceTokens)) continue;
      const kept = c.credentials.deviceTokens.filter((t) => !tokens.includes(t));
      removed += c.credentials.deviceTokens.length - kept.length;
      c.credentials.deviceTokens = kept;
    }
    this.touch(row);
    return removed;
  }

  async search(environmentId: string, filter: SubscriberSearch, page: CursorQuery<SubscriberOrderBy>): Promise<CursorPage<Subscriber>> {
    const [first, ...rest] = filter.name?.trim().split(/\s+/) ?? [];
    const named = (s: Subscriber, name: string) =>
      Boolean(s.firstName?.includes(name) || s.lastName?.includes(name) || (rest.length && s.firstName === first && s.lastName?.startsWith(rest.join(' '))));
    const matches = [...this.rows.values()].filter(
      (s) =>
        s.environmentId === environmentId &&
        (!filter.email || s.email?.startsWith(filter.email)) &&
        (!filter.phone || s.phone?.startsWith(filter.phone)) &&
        (!filter.subscriberId || s.subscriberId.startsWith(filter.subscriberId)) &&
        (!filter.name || named(s, filter.name)),
    );
    const result = cursorPage(matches, page, (s) => s[page.orderBy], page.orderBy !== 'subscriberId');
    return { ...result, data: result.data.map((s) => structuredClone(s)) };
  }

  private apply(row: Subscriber, changes: SubscriberAttributes) {
    for (const key of ATTRIBUTES) if (changes[key] !== undefined) (row as unknown as Record<string, unknown>)[key] = structuredClone(changes[key]);
  }

  private touch(row: Subscriber): Subscriber {
    row.version += 1;
    row.updatedAt = this.store.now();
    return structuredClone(row);
  }
}
