import { randomUUID } from 'node:crypto';
import type { ActivityFilter, ActivityNotification, ActivityPage, TriggerProgress } from '../entities/activity';
import type { Severity } from '../entities/channel';
import type { JobStatus, JsonObject } from '../entities/delivery';
import type { ActivityRepository } from '../ports/activity-repository';
import type { FanoutLane } from '../rules/fanout-lanes';
import { InMemoryStore, sameKeys } from './in-memory-store';

/** A notification as a trigger or fan-out writes it; the rest is read from the store when listed. */
export interface ActivityRow {
  id: string;
  environmentId: string;
  transactionId: string;
  /** Internal workflow id. */
  workflowId: string;
  subscriberRowId: string;
  channels: string[];
  payload: JsonObject;
  severity: Severity;
  contextKeys: string[];
  /** The topic and subscription a fan-out reached the recipient through. */
  topic: { id: string; key: string; subscriptionId: string } | null;
  /** Its steps' statuses (the double keeps no jobs: only what the status filter reads). */
  stepStatuses?: JobStatus[];
  createdAt: Date;
}

/** A trigger with topics: their keys, and while it fans out, its lanes (see `FanoutLane`). */
export interface FanoutRow {
  topicKeys: string[];
  lanes: FanoutLane[] | null;
}

const newestFirst = (a: ActivityRow, b: ActivityRow) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The ActivityRepository double: notifications in memory, each shown with its subscriber and
 * workflow as the store has them now, as the SQL adapter joins them. It keeps no jobs (its
 * notifications list none); `activity-repository-contract.ts` holds it to the SQL adapter's
 * selection, order, pages and scoping.
 */
export class InMemoryActivityRepository implements ActivityRepository {
  readonly rows: ActivityRow[] = [];

  /** By environment and transactionId. */
  readonly fanouts = new Map<string, FanoutRow>();

  constructor(readonly store = new InMemoryStore()) {}

  addFanout(environmentId: string, transactionId: string, fanout: FanoutRow): void {
    this.fanouts.set(`${environmentId}/${transactionId}`, structuredClone(fanout));
  }

  add(row: Omit<ActivityRow, 'id'>): string {
    const id = randomUUID();
    this.rows.push({ ...structuredClone(row), id });
    return id;
  }

  private matches(row: ActivityRow, f: ActivityFilter): boolean {
    const subscriber = this.store.subscriberByRowId(row.subscriberRowId);
    const workflow = this.store.workflows.get(row.workflowId);
    const subscriptions = f.subscriptionId === undefined ? [] : this.store.subscriptions.filter((s) => s.environmentId === row.environmentId && (s.id === f.subscriptionId || s.identifier === f.subscriptionId));
    if (f.channels && !f.channels.some((c) => row.channels.includes(c))) return false;
    if (f.templates && !f.templates.some((t) => t === row.workflowId || (workflow && t === workflow.workflowId))) return false;
    if (f.emails && !f.emails.includes(subscriber?.email ?? '')) return false;
    if (f.subscriberIds && !f.subscriberIds.includes(subscriber?.subscriberId ?? '')) return false;
    if (f.severity && !f.severity.includes(row.severity)) return false;
    if (f.statuses && !f.statuses.some((s) => row.stepStatuses?.includes(s))) return false;
    if (f.transactionId && row.transactionId !== f.transactionId) return false;
    if (f.topicKey && row.topic?.key !== f.topicKey) return false;
    if (f.subscriptionId) {
      // By id, or by identifier: the subscription's own notifications (its subscriber's).
      if (subscriptions.length && !subscriptions.some((s) => s.subscriberRowId === row.subscriberRowId)) return false;
      if (!row.topic || ![f.subscriptionId, ...subscriptions.map((s) => s.id)].includes(row.topic.subscriptionId)) return false;
    }
    if (f.contextKeys && !sameKeys(row.contextKeys, f.contextKeys)) return false;
    if (f.after && row.createdAt < f.after) return false;
    if (f.before && row.createdAt > f.before) return false;
    if (f.search && ![row.transactionId, subscriber?.subscriberId, subscriber?.email].includes(f.search)) return false;
    return true;
  }

  private present(row: ActivityRow): ActivityNotification | null {
    const s = this.store.subscriberByRowId(row.subscriberRowId);
    // The SQL adapter joins the subscriber: a notification whose subscriber is gone is not shown.
    if (!s) return null;
    const w = this.store.workflows.get(row.workflowId);
    const properties = (w?.payloadSchema as { properties?: object } | null)?.properties;
    return structuredClone({
      id: row.id,
      environmentId: row.environmentId,
      transactionId: row.transactionId,
      workflowId: row.workflowId,
      subscriber: { id: s.id, subscriberId: s.subscriberId, firstName: s.firstName, lastName: s.lastName, email: s.email, phone: s.phone },
      workflow: w ? { id: w.id, identifier: w.workflowId, name: w.name, origin: w.origin, payloadVariables: Object.keys(properties ?? {}) } : null,
      channels: row.channels,
      payload: row.payload,
      controls: null,
      to: row.topic ? { type: 'Topic', topicKey: row.topic.key } : null,
      tags: [],
      topics: row.topic ? [{ _topicId: row.topic.id, topicKey: row.topic.key }] : [],
      severity: row.severity,
      critical: false,
      contextKeys: row.contextKeys,
      digestedNotificationId: null,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
      jobs: [],
    });
  }

  async list(environmentId: string, filter: ActivityFilter, page: ActivityPage) {
    const rows = this.rows
      .filter((r) => r.environmentId === environmentId && this.store.subscriberByRowId(r.subscriberRowId) && this.matches(r, filter))
      .sort(newestFirst)
      .slice(page.page * page.limit);
    return { notifications: rows.slice(0, page.limit).map((r) => this.present(r)!), hasMore: rows.length > page.limit };
  }

  async triggerProgress(environmentId: string, notificationId: string): Promise<TriggerProgress | null> {
    const row = this.rows.find((r) => r.environmentId === environmentId && r.id === notificationId);
    if (!row) return null;
    const siblings = this.rows.filter((r) => r.environmentId === environmentId && r.transactionId === row.transactionId);
    const fanout = this.fanouts.get(`${environmentId}/${row.transactionId}`);
    const lanes = (fanout?.lanes ?? []).filter((l) => !l.done);
    const topicIds = new Set(this.store.topics.filter((t) => t.environmentId === environmentId && fanout?.topicKeys.includes(t.key)).map((t) => t.id));
    // UUIDs in canonical lower-case form order as PostgreSQL orders uuid values.
    const remaining = this.store.subscriptions.filter((s) => topicIds.has(s.topicId) && lanes.some((l) => s.subscriberRowId > l.after && s.subscriberRowId <= l.until)).length;
    const createdAt = siblings.reduce((min, r) => (r.createdAt < min ? r.createdAt : min), row.createdAt);
    return {
      transactionId: row.transactionId,
      topicKeys: fanout?.topicKeys ?? [],
      status: fanout?.lanes ? 'fanning_out' : 'fanned_out',
      recipients: siblings.length,
      total: siblings.length + (fanout?.lanes ? remaining : 0),
      createdAt,
      fannedOutAt: fanout?.lanes ? null : createdAt,
    };
  }

  async findById(environmentId: string, notificationId: string) {
    const row = this.rows.find((r) => r.environmentId === environmentId && r.id === notificationId);
    return row ? this.present(row) : null;
  }
}
