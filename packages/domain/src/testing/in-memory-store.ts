import type { DeliverySchedule } from '../entities/delivery-schedule';
import type { ChannelConnection, EndpointAddress, EndpointType } from '../entities/channel-endpoint';
import type { Integration } from '../entities/integration';
import type { ChannelFlags } from '../entities/preferences';
import type { Subscriber } from '../entities/subscriber';
import type { SubscriptionPreferenceRule } from '../entities/subscription';
import type { Topic } from '../entities/topic';
import type { Workflow } from '../entities/workflow';

export interface SubscriptionRow {
  id: string;
  environmentId: string;
  topicId: string;
  subscriberRowId: string;
  identifier: string;
  name: string | null;
  contextKeys: string[];
  preferences: SubscriptionPreferenceRule[];
  createdAt: Date;
  updatedAt: Date;
}

export interface PreferenceRow {
  subscriberRowId: string;
  /** Internal workflow id; null for the global level. */
  workflowId: string | null;
  enabled: boolean | null;
  channels: ChannelFlags;
}

interface BoundRow {
  id: string;
  environmentId: string;
  identifier: string;
  integrationId: string;
  contextKeys: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionRow extends BoundRow {
  subscriberRowId: string | null;
  workspace: ChannelConnection['workspace'];
  auth: ChannelConnection['auth'];
}

export interface EndpointRow extends BoundRow {
  connectionId: string | null;
  subscriberRowId: string;
  type: EndpointType;
  endpoint: EndpointAddress;
}

/**
 * The tables the in-memory doubles share, as the SQL adapters share one database: a double reads
 * the rows another wrote (a topic's subscribers, a preference's workflows), and deletes cascade
 * as the foreign keys do.
 */
export class InMemoryStore {
  /** Keyed `${environmentId}/${subscriberId}`. */
  readonly subscribers = new Map<string, Subscriber>();
  readonly topics: Topic[] = [];
  readonly subscriptions: SubscriptionRow[] = [];
  readonly preferences: PreferenceRow[] = [];
  /** Keyed by internal id. */
  readonly workflows = new Map<string, Workflow>();
  readonly integrations: Integration[] = [];
  readonly connections: ConnectionRow[] = [];
  readonly endpoints: EndpointRow[] = [];
  /** Delivery schedules by subscriber row id (a column of the subscriber's row in SQL). */
  readonly schedules = new Map<string, DeliverySchedule>();
  private last = 0;

  /** The current time, never equal to an earlier reading (rows keep a stable creation order). */
  now(): Date {
    this.last = Math.max(Date.now(), this.last + 1);
    return new Date(this.last);
  }

  subscriber(environmentId: string, subscriberId: string): Subscriber | undefined {
    return this.subscribers.get(`${environmentId}/${subscriberId}`);
  }

  subscriberByRowId(id: string | null): Subscriber | undefined {
    return id === null ? undefined : [...this.subscribers.values()].find((s) => s.id === id);
  }

  /** What deleting a subscriber row takes with it (ON DELETE CASCADE); connections keep a dangling id. */
  cascadeSubscriber(rowId: string): void {
    remove(this.subscriptions, (s) => s.subscriberRowId === rowId);
    remove(this.preferences, (p) => p.subscriberRowId === rowId);
    remove(this.endpoints, (e) => e.subscriberRowId === rowId);
    this.schedules.delete(rowId);
  }

  cascadeWorkflow(id: string): void {
    remove(this.preferences, (p) => p.workflowId === id);
  }
}

/** Removes the matching rows in place. */
export function remove<T>(rows: T[], doomed: (row: T) => boolean): number {
  let removed = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (doomed(rows[i])) {
      rows.splice(i, 1);
      removed++;
    }
  }
  return removed;
}

/** Stored keys are sorted; a filter matches them exactly, in any order. */
export const sameKeys = (stored: readonly string[], wanted: readonly string[]) =>
  stored.length === wanted.length && [...stored].sort().join('\n') === [...wanted].sort().join('\n');
