import type { Severity } from '../entities/channel';
import type { InboxActionType, InboxFilter, InboxNotification, InboxOwner, InboxPatch, InboxSelection } from '../entities/inbox';
import type { InboxRepository } from '../ports/inbox-repository';

const sameKeys = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

function matches(n: InboxNotification, f: InboxFilter): boolean {
  if (f.read !== undefined && n.isRead !== f.read) return false;
  if (f.seen !== undefined && n.isSeen !== f.seen) return false;
  if (f.archived !== undefined && n.isArchived !== f.archived) return false;
  if (f.snoozed !== undefined && n.isSnoozed !== f.snoozed) return false;
  if (f.severity?.length && !f.severity.includes(n.severity)) return false;
  if (f.tags?.length && !f.tags.some((t) => n.tags.includes(t))) return false;
  if (f.data && !Object.entries(f.data).every(([k, v]) => JSON.stringify(n.data?.[k]) === JSON.stringify(v))) return false;
  if (f.contextKeys && !sameKeys(n.contextKeys, f.contextKeys)) return false;
  if (f.createdGte && n.createdAt < f.createdGte) return false;
  if (f.createdLte && n.createdAt > f.createdLte) return false;
  return true;
}

/** A fake for domain tests: the owners' notifications in memory, with the port's timestamp rules. */
export class InMemoryInboxRepository implements InboxRepository {
  readonly owners: InboxOwner[] = [];
  readonly notifications: InboxNotification[] = [];

  constructor(private readonly now: () => Date = () => new Date()) {}

  private mine(owner: InboxOwner) {
    return this.notifications.filter((n) => n.to.id === owner.id).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  }

  private selected(owner: InboxOwner, s: InboxSelection) {
    return this.mine(owner).filter(
      (n) => matches(n, { tags: s.tags, data: s.data, contextKeys: s.contextKeys, read: s.onlyRead ? true : undefined }) && (!s.ids || s.ids.includes(n.id)),
    );
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
    return this.owners.find((o) => o.environmentId === environmentId && o.subscriberId === subscriberId) ?? null;
  }

  async list(owner: InboxOwner, filter: InboxFilter, page: { limit: number; after?: string; offset: number }) {
    let rows = this.mine(owner).filter((n) => matches(n, filter));
    if (page.after !== undefined) {
      const at = rows.findIndex((n) => n.id === page.after);
      rows = at < 0 ? [] : rows.slice(at + 1);
    }
    rows = rows.slice(page.offset);
    return { notifications: rows.slice(0, page.limit).map((n) => ({ ...n })), hasMore: rows.length > page.limit };
  }

  async count(owner: InboxOwner, filters: InboxFilter[]) {
    return filters.map((f) => this.mine(owner).filter((n) => matches(n, f)).length);
  }

  async find(owner: InboxOwner, id: string, contextKeys?: string[]) {
    const n = this.mine(owner).find((x) => x.id === id && matches(x, { contextKeys }));
    return n ? { ...n } : null;
  }

  async update(owner: InboxOwner, id: string, patch: InboxPatch, contextKeys?: string[]) {
    const n = this.mine(owner).find((x) => x.id === id && matches(x, { contextKeys }));
    if (!n) return null;
    this.apply(n, patch);
    return { ...n };
  }

  async updateMany(owner: InboxOwner, selection: InboxSelection, patch: InboxPatch) {
    const rows = this.selected(owner, selection);
    rows.forEach((n) => this.apply(n, patch));
    return rows.length;
  }

  async setActionCompleted(owner: InboxOwner, id: string, action: InboxActionType, completed: boolean, contextKeys?: string[]) {
    const n = this.mine(owner).find((x) => x.id === id && matches(x, { contextKeys }));
    const key = action === 'primary' ? 'primaryAction' : 'secondaryAction';
    if (!n || !n[key]) return null;
    n[key] = { ...n[key], isCompleted: completed };
    return { ...n };
  }

  async delete(owner: InboxOwner, selection: InboxSelection) {
    const doomed = new Set(this.selected(owner, selection));
    for (let i = this.notifications.length - 1; i >= 0; i--) if (doomed.has(this.notifications[i])) this.notifications.splice(i, 1);
    return doomed.size;
  }

  /** jobId -> notification id, for findByJobs. */
  readonly jobs = new Map<string, string>();

  async findByJobs(environmentId: string, jobIds: string[]) {
    const ids = new Set(jobIds.map((j) => this.jobs.get(j)));
    return this.notifications.filter((n) => n.to.environmentId === environmentId && ids.has(n.id)).map((n) => ({ ...n }));
  }

  async unreadBySeverity(environmentId: string, subscriberRefs: string[]) {
    const counts = new Map<string, Partial<Record<Severity, number>>>();
    for (const n of this.notifications) {
      if (n.to.environmentId !== environmentId || !subscriberRefs.includes(n.to.id) || !matches(n, { read: false, archived: false, snoozed: false })) continue;
      const entry = counts.get(n.to.id) ?? {};
      entry[n.severity] = (entry[n.severity] ?? 0) + 1;
      counts.set(n.to.id, entry);
    }
    return counts;
  }
}
