import { token } from '../shared/token';
import type { DeliverySchedule } from '../entities/delivery-schedule';
import type { ChannelFlags, SubscriberPreferenceRecord, WorkflowSettings } from '../entities/preferences';

export const PreferenceRepository = token<PreferenceRepository>('PreferenceRepository');

export interface SubscriberPreferences {
  global: SubscriberPreferenceRecord | null;
  /** Keyed by the workflow's internal id. */
  perWorkflow: Map<string, SubscriberPreferenceRecord>;
  /** The subscriber's delivery schedule; null when none was set. */
  schedule: DeliverySchedule | null;
}

export interface PreferenceRepository {
  /** Every workflow of the environment that is not deleted, oldest first. */
  listWorkflowSettings(environmentId: string): Promise<WorkflowSettings[]>;
  /** By trigger identifier or internal id; null when not found. */
  findWorkflowSettings(environmentId: string, reference: string): Promise<WorkflowSettings | null>;
  /** null when the subscriber does not exist. */
  findSubscriberPreferences(environmentId: string, subscriberId: string): Promise<SubscriberPreferences | null>;
  /**
   * Merges `channels` into the subscriber's global level (workflowId null) or the level of one
   * workflow (internal id), creating it when missing; false when the subscriber does not exist.
   */
  mergeSubscriberPreference(environmentId: string, subscriberId: string, workflowId: string | null, channels: ChannelFlags): Promise<boolean>;
  /**
   * Stores the subscriber's delivery schedule (null removes it); with `onlyIfUnset`, only when they
   * have none yet. False when the subscriber does not exist (or, `onlyIfUnset`, already has one).
   */
  setSchedule(environmentId: string, subscriberId: string, schedule: DeliverySchedule | null, onlyIfUnset?: boolean): Promise<boolean>;
}
