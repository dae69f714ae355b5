import type { Severity } from '../entities/channel';
import type { InboxActionType, InboxFilter, InboxNotification, InboxOwner, InboxPatch, InboxSelection } from '../entities/inbox';
import type { InboxRepository } from '../ports/inbox-repository';
import { InMemoryStore, sameKeys } from './in-memory-store';

/** JSON containment as PostgreSQL's `@>`: objects by key, arrays by any element, scalars by equality. */
export function jsonContains(stored: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return Array.isArray(stored) && wanted.every((w) => stored.some((s) => jsonContains(s, w)));
  if (wanted !== null && typeof wanted === 'object') {
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return false;
    return Object.entries(wanted).every(([k, v]) => k in stored && jsonContains((stored as Record<string, unknown>)[k], v));
  }
  return stored === wanted;
}

const newestFirst = (a: InboxNotification, b: InboxNotification) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The InboxRepository double: in-app notifications in memory, with the SQL adapter's rules (a snooze
 * ends by itself when its time passes, the `after` cursor is any of the owner's notifications,
 * data filters are containment). Owners are the shared store's subscribers, or those a test adds to
 * `owners`. `inbox-repository-contract.ts` holds it to the SQL adapter's behaviour.
 */
export class InMemoryInboxRepository implements InboxRepository {
  readonly owners: InboxOwner[] = [];
  readonly notifications: InboxNotification[] = [];
  /** jobId -> notification id: the job that made each notification (findByJobs). */
  readonly jobs = new Map<string, string>();

  constructor(
    private readonly now: () => Date = () => new Date(),
    readonly store = new InMemoryStore(),
  ) {}

  /** A notification as delivery writes it, made by `jobId`. */
  add(notification: InboxNotification, jobId?: string): void {
    this.notifications.push(structuredClone(notification));
    if (jobId) this.jobs.set(jobId, notification.id);
  }

  private snoozed(n: InboxNotification): boolean {
    return n.isSnoozed && (n.snoozedUntil === null || n.snoozedUntil > this.now());
  }

  private present(n: InboxNotification): InboxNotification {
    return { ...structuredClone(n), isSnoozed: this.snoozed(n) };
  }

  private matches(n: InboxNotification, f: InboxFilter): boolean {
    if (f.read !== undefined && n.isRead !== f.read) return false;
    if (f.seen !== undefined && n.isSeen !== f.seen) return false;
    if (f.archived !== undefined && n.isArchived !== f.archived) return false;
    if (f.snoozed !== undefined && this.snoozed(n) !== f.snoozed) return false;
    if (f.severity?.length && !f.severity.includes(n.severity)) return false;
    if (f.tags && !f.tags.every((group) => group.some((t) => n.tags.includes(t)))) return false;
    if (f.data && Object.keys(f.data).length && !jsonContains(n.data, f.data)) return false;
    if (f.contextKeys && !sameKeys(n.contextKeys, f.contextKeys)) return false;
    if (f.createdGte && n.createdAt < f.createdGte) return false;
    if (f.createdLte && n.createdAt > f.createdLte) return false;
    return true;
  }

  private mine(owner: InboxOwner) {
    return this.notifications.filter((n) => n.to.environmentId === owner.environmentId && n.to.id === owner.id && n.channelType === 'in_app').sort(newestFirst);
  }

  private one(owner: InboxOwner, id: string, contextKeys?: string[]) {
    return this.mine(owner).find((x) => x.id === id && this.matches(x, { contextKeys }));
  }

  private selected(owner: InboxOwner, s: InboxSelection) {
    const filter = { tags: s.tags, data: s.data, contextKeys: s.contextKeys, read: s.onlyRead ? true : undefined };
    return this.mine(owner).filter((n) => this.matches(n, filter) && (!s.ids || s.ids.includes(n.id)));
  }

  private apply(n: InboxNotification, patch: InboxPatch) {
    const now = this.now();
    if (patch.read === true) Object.assign(n, { isRead: true, readAt: n.isRead ? n.readAt : now });
    if (patch.read === false) Object.assign(n, { isRead: false, readAt: null });
    if (patch.seen) Object.assign(n, { isSeen: true, firstSeenAt: n.firstSeenAt ?? now });
    if (patch.archived === true) Object.assign(n, { isArchived: true, archivedAt: n.isArchived ? n.archivedAt : now });
    if (patch.archived === false) Object.assign(n, { isArchived: false, archivedAt: null });
    if (patch.snoozedUntil !== undefined) Object.assign(n, { isSnoozed: patch.snoozedUntil !== null, snoozedUntil: patch.snoozedUntil });
  }

  async owner(environmentId: string, subscriberId: string) {
    const subscriber = this.store.subscriber(environmentId, subscriberId);
    if (subscriber) {
      const { id, firstName, lastName, avatar } = subscriber;
      return { id, environmentId, subscriberId, firstName, lastName, avatar };
    }
    return this.owners.find((o) => o.environmentId === environmentId && o.subscriberId === subscriberId) ?? null;
  }

  async list(owner: InboxOwner, filter: InboxFilter, page: { limit: number; after?: string; offset: number }) {
    const mine = this.mine(owner);
    let rows = mine.filter((n) => this.matches(n, filter));
    if (page.after !== undefined) {
      // Keyset from the cursor notification, which must be the owner's (whatever the filter).
      const cursor = mine.find((n) => n.id === page.after);
      rows = cursor ? rows.filter((n) => newestFirst(cursor, n) < 0) : [];
    }
    rows = rows.slice(page.offset);
    return { notifications: rows.slice(0, page.limit).map((n) => this.present(n)), hasMore: rows.length > page.limit };
  }

  async count(owner: InboxOwner, filters: InboxFilter[]) {
    return filters.map((f) => this.mine(owner).filter((n) => this.matches(n, f)).length);
  }

  async find(owner: InboxOwner, id: string, contextKeys?: string[]) {
    const n = this.one(owner, id, contextKeys);
    return n ? this.present(n) : null;
  }

  async update(owner: InboxOwner, id: string, patch: InboxPatch, contextKeys?: string[]) {
    const n = this.one(owner, id, contextKeys);
    if (!n) return null;
    this.apply(n, patch);
    return this.present(n);
  }

  async updateMany(owner: InboxOwner, selection: InboxSelection, patch: InboxPatch) {
    const rows = this.selected(owner, selection);
    rows.forEach((n) => this.apply(n, patch));
    return rows.length;
  }

  async setActionCompleted(owner: InboxOwner, id: string, action: InboxActionType, completed: boolean, contextKeys?: string[]) {
    const n = this.one(owner, id, contextKeys);
    const key = action === 'primary' ? 'primaryAction' : 'secondaryAction';
    if (!n || !n[key]) return null;
    n[key] = { ...n[key], isCompleted: completed };
    return this.present(n);
  }

  async delete(owner: InboxOwner, selection: InboxSelection) {
    const doomed = new Set(this.selected(owner, selection));
    for (let i = this.notifications.length - 1; i >= 0; i--) if (doomed.has(this.notifications[i])) this.notifications.splice(i, 1);
    return doomed.size;
  }

  async findByJobs(environmentId: string, jobIds: string[]) {
    const ids = new Set(jobIds.map((j) => this.jobs.get(j)));
    return this.notifications.filter((n) => n.to.environmentId === environmentId && n.channelType === 'in_app' && ids.has(n.id)).map((n) => this.present(n));
  }

  async liveCounts(environmentId: string, subscriberRefs: string[]) {
    const counts = new Map<string, { unread: Partial<Record<Severity, number>>; unseen: number }>();
    for (const n of this.notifications) {
      if (n.to.environmentId !== environmentId || n.channelType !== 'in_app' || !subscriberRefs.includes(n.to.id)) continue;
      if (!this.matches(n, { archived: false, snoozed: false })) continue;
      const entry = counts.get(n.to.id) ?? { unread: {}, unseen: 0 };
      if (!n.isRead) entry.unread[n.severity] = (entry.unread[n.severity] ?? 0) + 1;
      if (!n.isSeen) entry.unseen++;
      if (!n.isRead || !n.isSeen) counts.set(n.to.id, entry);
    }
    return counts;
  }
}
