import { randomUUID } from 'node:crypto';
import { addCounts, HISTORY_SOURCES, NO_PURGE_COUNTS, type HistorySource, type PurgeCounts, type RetentionDayRecord } from '../entities/retention';
import type { PurgeBatch, RecheckBatch, RetentionProgress, RetentionRepository } from '../ports/retention-repository';

/** One notification of seeded history: an inline in-app message, and optionally one job with a detail and a message. */
export interface HistorySeed {
  /** Given to put a row back (a restore); made up otherwise. */
  id?: string;
  environmentId: string;
  createdAt: Date;
  /** Its job's status; null (default): no job, its only step ran inline. */
  jobStatus?: string | null;
  /** Rows naming the same key share one event (created with the first); default: its own. */
  event?: string;
  eventStatus?: string;
  /** Its job joined this digest (rows naming the same window share it); `leads`: its job opened it. */
  digest?: { window: string; status: 'open' | 'closed'; leads: boolean };
  /** Its in-app message is snoozed until then. */
  snoozedUntil?: Date;
}

/** One outbound webhook event of seeded history: one delivery per status given, each with `attempts` attempts (default 1). */
export interface WebhookHistorySeed {
  environmentId: string;
  createdAt: Date;
  deliveries: Array<'pending' | 'succeeded' | 'failed'>;
  attempts?: number;
}

/** What is left of seeded history in one environment. */
export type HistoryLeft = PurgeCounts;

interface Notification { id: string; environmentId: string; eventId: string; createdAt: Date; inlineJobId: string }
interface Job { id: string; notificationId: string; status: string; windowId: string | null }
interface Message { jobId: string; snoozedUntil: Date | null; environmentId: string }
interface WebhookEvent { id: string; environmentId: string; createdAt: Date; deliveries: Array<{ status: string; attempts: number }> }
interface Day { record: RetentionDayRecord; after: Record<HistorySource, [number, string] | null> }

const DAY_MS = 86_400_000;
const UNFINISHED = new Set(['pending', 'queued', 'running', 'delayed']);
const after = (cursor: [number, string] | null) => (row: { createdAt: Date; id: string }) =>
  !cursor || row.createdAt.getTime() > cursor[0] || (row.createdAt.getTime() === cursor[0] && row.id > cursor[1]);
const byTime = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The RetentionRepository double: seeded delivery history in memory, purged by the same rules as
 * the SQL adapter (`retention-repository-contract.ts` holds it to them).
 */
export class InMemoryRetentionRepository implements RetentionRepository {
  private notifications: Notification[] = [];
  private jobs: Job[] = [];
  private details: Array<{ jobId: string }> = [];
  private messages: Message[] = [];
  private windows = new Map<string, { id: string; environmentId: string; status: string; leaderJobId: string | null }>();
  private events = new Map<string, { id: string; environmentId: string; createdAt: Date; status: string }>();
  private webhookEvents = new Map<string, WebhookEvent>();
  private eventKeys = new Map<string, string>();
  private windowKeys = new Map<string, string>();
  private ledger = new Map<string, Day>();
  private kept = new Map<string, Set<string>>();

  /** Adds history (ids in order); a row with an id already gone is put back as it was. */
  async seed(rows: HistorySeed[]): Promise<string[]> {
    return rows.map((row) => {
      const id = row.id ?? randomUUID();
      const eventKey = row.event ?? `own-${id}`;
      const eventId = this.eventKeys.get(eventKey) ?? randomUUID();
      this.eventKeys.set(eventKey, eventId);
      if (!this.events.has(eventId)) this.events.set(eventId, { id: eventId, environmentId: row.environmentId, createdAt: row.createdAt, status: row.eventStatus ?? 'fanned_out' });
      const inlineJobId = `inline-${id}`;
      this.notifications.push({ id, environmentId: row.environmentId, eventId, createdAt: row.createdAt, inlineJobId });
      this.messages.push({ jobId: inlineJobId, snoozedUntil: row.snoozedUntil ?? null, environmentId: row.environmentId });
      if (row.jobStatus || row.digest) {
        const jobId = `job-${id}`;
        let windowId: string | null = null;
        if (row.digest) {
          windowId = this.windowKeys.get(row.digest.window) ?? randomUUID();
          this.windowKeys.set(row.digest.window, windowId);
          const window = this.windows.get(windowId) ?? { id: windowId, environmentId: row.environmentId, status: row.digest.status, leaderJobId: null };
          if (row.digest.leads) window.leaderJobId = jobId;
          this.windows.set(windowId, window);
        }
        this.jobs.push({ id: jobId, notificationId: id, status: row.jobStatus ?? 'merged', windowId });
        this.details.push({ jobId });
        this.messages.push({ jobId, snoozedUntil: null, environmentId: row.environmentId });
      }
      return id;
    });
  }

  /** Adds outbound webhook events with their deliveries and attempts (ids in order). */
  async seedWebhookEvents(rows: WebhookHistorySeed[]): Promise<string[]> {
    return rows.map((row) => {
      const id = randomUUID();
      const deliveries = row.deliveries.map((status) => ({ status, attempts: row.attempts ?? 1 }));
      this.webhookEvents.set(id, { id, environmentId: row.environmentId, createdAt: row.createdAt, deliveries });
      return id;
    });
  }

  /** Ends the pending deliveries of a webhook event: they succeeded. */
  async settleWebhookEvent(id: string): Promise<void> {
    for (const delivery of this.webhookEvents.get(id)?.deliveries ?? []) if (delivery.status === 'pending') delivery.status = 'succeeded';
  }

  /** What is left in the environment. */
  async left(environmentId: string): Promise<HistoryLeft> {
    const notifications = new Set(this.notifications.filter((n) => n.environmentId === environmentId).map((n) => n.id));
    const jobs = this.jobs.filter((j) => notifications.has(j.notificationId));
    const jobIds = new Set(jobs.map((j) => j.id));
    return {
      notifications: notifications.size,
      jobs: jobs.length,
      executionDetails: this.details.filter((d) => jobIds.has(d.jobId)).length,
      messages: this.messages.filter((m) => m.environmentId === environmentId).length,
      digestWindows: [...this.windows.values()].filter((w) => w.environmentId === environmentId).length,
      events: [...this.events.values()].filter((e) => e.environmentId === environmentId).length,
      ...this.webhookLeft([...this.webhookEvents.values()].filter((e) => e.environmentId === environmentId)),
    };
  }

  /** Ends whatever kept the notification in flight: its job completed, its digest closed, its snooze and its event's fan-out over. */
  async settle(notificationId: string): Promise<void> {
    const notification = this.notifications.find((n) => n.id === notificationId)!;
    for (const job of this.jobs.filter((j) => j.notificationId === notificationId)) {
      if (UNFINISHED.has(job.status)) job.status = 'completed';
      const window = job.windowId ? this.windows.get(job.windowId) : undefined;
      if (window) window.status = 'closed';
    }
    for (const message of this.messages.filter((m) => m.jobId === notification.inlineJobId)) message.snoozedUntil = null;
    const event = this.events.get(notification.eventId);
    if (event?.status === 'fanning_out') event.status = 'fanned_out';
  }

  /** Whether the notification is still there. */
  async has(notificationId: string): Promise<boolean> {
    return this.notifications.some((n) => n.id === notificationId);
  }

  async progress(environmentId: string): Promise<RetentionProgress> {
    const days = [...this.ledger.values()].map((d) => d.record).filter((r) => r.environmentId === environmentId).sort((a, b) => a.day.getTime() - b.day.getTime());
    return { open: days.filter((r) => r.state === 'purging').map((r) => r.day), latest: days.at(-1)?.day ?? null };
  }

  async oldestDay(environmentId: string, from: Date | null, before: Date): Promise<Date | null> {
    const times = [...this.notifications, ...this.events.values(), ...this.webhookEvents.values()]
      .filter((r) => r.environmentId === environmentId && r.createdAt < before && (!from || r.createdAt >= from))
      .map((r) => r.createdAt.getTime());
    return times.length ? new Date(Math.floor(Math.min(...times) / DAY_MS) * DAY_MS) : null;
  }

  async purge(source: HistorySource, environmentId: string, day: Date, limit: number, now: Date): Promise<PurgeBatch> {
    const entry = this.open(environmentId, day, now);
    if (entry.record.state === 'purged') return this.nothing();
    const end = new Date(day.getTime() + DAY_MS);
    const cursor = entry.after[source];
    const rows: Array<{ id: string; createdAt: Date; environmentId: string }> =
      source === 'notifications' ? this.notifications : source === 'events' ? [...this.events.values()] : [...this.webhookEvents.values()];
    const scanned = rows.filter((r) => r.environmentId === environmentId && r.createdAt >= day && r.createdAt < end).filter(after(cursor)).sort(byTime).slice(0, limit);
    const last = scanned.at(-1);
    if (last) {
      entry.after[source] = [last.createdAt.getTime(), last.id];
    }
    const result = this.remove(source, scanned.map((r) => r.id), now);
    for (const id of result.held) this.keptSet(environmentId, day, source).add(id);
    return this.count(entry, result.counts, scanned.length, result.held.length);
  }

  async recheck(source: HistorySource, environmentId: string, day: Date, afterId: string | null, limit: number, now: Date): Promise<RecheckBatch> {
    const entry = this.open(environmentId, day, now);
    if (entry.record.state === 'purged') return { ...this.nothing(), last: null };
    const kept = this.keptSet(environmentId, day, source);
    const scanned = [...kept].filter((id) => !afterId || id > afterId).sort().slice(0, limit);
    const result = this.remove(source, scanned, now);
    for (const id of scanned) if (!result.held.includes(id)) kept.delete(id);
    return { ...this.count(entry, result.counts, scanned.length, result.held.length), last: scanned.at(-1) ?? null };
  }

  async closeDay(environmentId: string, day: Date, now: Date): Promise<RetentionDayRecord> {
    const entry = this.open(environmentId, day, now);
    const kept = this.keptCount(environmentId, day);
    entry.record.state = kept ? 'purging' : 'purged';
    if (!kept) entry.record.purgedAt ??= now;
    return { ...entry.record, counts: { ...entry.record.counts }, kept };
  }

  async days(environmentId: string, limit: number): Promise<RetentionDayRecord[]> {
    return [...this.ledger.values()]
      .map((d) => d.record)
      .filter((r) => r.environmentId === environmentId)
      .sort((a, b) => b.day.getTime() - a.day.getTime())
      .slice(0, limit)
      .map((r) => ({ ...r, counts: { ...r.counts }, kept: this.keptCount(environmentId, r.day) }));
  }

  private open(environmentId: string, day: Date, now: Date): Day {
    const key = `${environmentId}|${day.toISOString()}`;
    let entry = this.ledger.get(key);
    if (!entry) {
      const record: RetentionDayRecord = { environmentId, day, state: 'purging', counts: { ...NO_PURGE_COUNTS }, kept: 0, startedAt: now, purgedAt: null };
      entry = { record, after: { notifications: null, events: null, webhook_events: null } };
      this.ledger.set(key, entry);
    }
    return entry;
  }

  private keptSet(environmentId: string, day: Date, source: HistorySource): Set<string> {
    const key = `${environmentId}|${day.toISOString()}|${source}`;
    if (!this.kept.has(key)) this.kept.set(key, new Set());
    return this.kept.get(key)!;
  }

  private keptCount(environmentId: string, day: Date): number {
    return HISTORY_SOURCES.reduce((sum, source) => sum + this.keptSet(environmentId, day, source).size, 0);
  }

  /** Removes the rows of `ids` that are not in flight, with what belongs to them; returns the held ones. */
  private remove(source: HistorySource, ids: string[], now: Date): { counts: PurgeCounts; held: string[] } {
    const counts = { ...NO_PURGE_COUNTS };
    const held: string[] = [];
    for (const id of ids) {
      if (source === 'webhook_events') {
        const event = this.webhookEvents.get(id);
        if (event?.deliveries.some((d) => d.status === 'pending')) held.push(id);
        else if (event && this.webhookEvents.delete(id)) Object.assign(counts, addCounts(counts, { ...NO_PURGE_COUNTS, ...this.webhookLeft([event]) }));
        continue;
      }
      if (source === 'events') {
        const event = this.events.get(id);
        if (event && (event.status === 'fanning_out' || this.notifications.some((n) => n.eventId === id))) held.push(id);
        else if (event && this.events.delete(id)) counts.events++;
        continue;
      }
      const notification = this.notifications.find((n) => n.id === id);
      if (!notification) continue;
      if (this.inFlight(notification, now)) {
        held.push(id);
        continue;
      }
      const jobs = this.jobs.filter((j) => j.notificationId === id);
      const jobIds = new Set([...jobs.map((j) => j.id), notification.inlineJobId]);
      counts.notifications++;
      counts.jobs += jobs.length;
      counts.executionDetails += this.details.filter((d) => jobIds.has(d.jobId)).length;
      counts.messages += this.messages.filter((m) => jobIds.has(m.jobId)).length;
      for (const job of jobs) {
        const window = job.windowId ? this.windows.get(job.windowId) : undefined;
        if (window && window.status !== 'open' && window.leaderJobId === job.id && this.windows.delete(window.id)) counts.digestWindows++;
      }
      this.notifications = this.notifications.filter((n) => n.id !== id);
      this.jobs = this.jobs.filter((j) => j.notificationId !== id);
      this.details = this.details.filter((d) => !jobIds.has(d.jobId));
      this.messages = this.messages.filter((m) => !jobIds.has(m.jobId));
    }
    return { counts, held };
  }

  private webhookLeft(events: WebhookEvent[]): Pick<PurgeCounts, 'webhookEvents' | 'webhookDeliveries' | 'webhookAttempts'> {
    const deliveries = events.flatMap((e) => e.deliveries);
    return { webhookEvents: events.length, webhookDeliveries: deliveries.length, webhookAttempts: deliveries.reduce((sum, d) => sum + d.attempts, 0) };
  }

  private inFlight(notification: Notification, now: Date): boolean {
    const jobs = this.jobs.filter((j) => j.notificationId === notification.id);
    const jobIds = new Set([...jobs.map((j) => j.id), notification.inlineJobId]);
    return (
      jobs.some((j) => UNFINISHED.has(j.status) || (j.windowId && this.windows.get(j.windowId)?.status === 'open')) ||
      this.messages.some((m) => jobIds.has(m.jobId) && m.snoozedUntil && m.snoozedUntil > now) ||
      this.events.get(notification.eventId)?.status === 'fanning_out'
    );
  }

  private count(entry: Day, counts: PurgeCounts, scanned: number, kept: number): PurgeBatch {
    for (const key of Object.keys(counts) as Array<keyof PurgeCounts>) entry.record.counts[key] += counts[key];
    return { counts, scanned, kept };
  }

  private nothing(): PurgeBatch {
    return { counts: { ...NO_PURGE_COUNTS }, scanned: 0, kept: 0 };
  }
}
