import { SEVERITIES, type Severity } from '../entities/channel';
import type { DeliverySchedule } from '../entities/delivery-schedule';
import type { ChannelFlags, SubscriberPreferenceRecord, WorkflowSettings } from '../entities/preferences';
import type { Workflow } from '../entities/workflow';
import type { PreferenceRepository, SubscriberPreferences } from '../ports/preference-repository';
import { InMemoryStore } from './in-memory-store';

const settings = (w: Workflow): WorkflowSettings =>
  structuredClone({
    id: w.id,
    identifier: w.workflowId,
    name: w.name,
    critical: w.critical,
    tags: w.tags,
    severity: (SEVERITIES as readonly string[]).includes(w.severity) ? (w.severity as Severity) : 'none',
    data: w.data ?? null,
    defaults: w.preferences ?? {},
    updatedAt: w.updatedAt,
  });

/**
 * The PreferenceRepository double: workflow settings read from the workflows the workflow double
 * wrote, subscriber levels kept in the shared store. `preference-repository-contract.ts` holds it to
 * the SQL adapter's behaviour.
 */
export class InMemoryPreferenceRepository implements PreferenceRepository {
  constructor(readonly store = new InMemoryStore()) {}

  private workflows(environmentId: string) {
    return [...this.store.workflows.values()]
      .filter((w) => w.environmentId === environmentId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async listWorkflowSettings(environmentId: string) {
    return this.workflows(environmentId).map(settings);
  }

  async findWorkflowSettings(environmentId: string, reference: string) {
    const workflow = this.workflows(environmentId).find((w) => w.workflowId === reference || w.id === reference);
    return workflow ? settings(workflow) : null;
  }

  async findSubscriberPreferences(environmentId: string, subscriberId: string): Promise<SubscriberPreferences | null> {
    const subscriber = this.store.subscriber(environmentId, subscriberId);
    if (!subscriber) return null;
    const schedule = this.store.schedules.get(subscriber.id);
    const result: SubscriberPreferences = { global: null, perWorkflow: new Map(), schedule: schedule ? structuredClone(schedule) : null };
    for (const row of this.store.preferences.filter((p) => p.subscriberRowId === subscriber.id)) {
      const record: SubscriberPreferenceRecord = { enabled: row.enabled, channels: { ...row.channels } };
      if (row.workflowId === null) result.global = record;
      else result.perWorkflow.set(row.workflowId, record);
    }
    return result;
  }

  async mergeSubscriberPreference(environmentId: string, subscriberId: string, workflowId: string | null, channels: ChannelFlags) {
    const subscriber = this.store.subscriber(environmentId, subscriberId);
    if (!subscriber) return false;
    const row = this.store.preferences.find((p) => p.subscriberRowId === subscriber.id && p.workflowId === workflowId);
    if (row) Object.assign(row.channels, channels);
    else this.store.preferences.push({ subscriberRowId: subscriber.id, workflowId, enabled: null, channels: { ...channels } });
    return true;
  }

  async setSchedule(environmentId: string, subscriberId: string, schedule: DeliverySchedule | null, onlyIfUnset = false) {
    const subscriber = this.store.subscriber(environmentId, subscriberId);
    if (!subscriber || (onlyIfUnset && this.store.schedules.has(subscriber.id))) return false;
    if (schedule) this.store.schedules.set(subscriber.id, structuredClone(schedule));
    else this.store.schedules.delete(subscriber.id);
    return true;
  }
}
