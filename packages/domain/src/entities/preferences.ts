import type { ChannelType, Severity } from './channel';

/** A partial channel -> on/off map; a channel not mentioned inherits from the level below. */
export type ChannelFlags = Partial<Record<ChannelType, boolean>>;

/** One stored level of a subscriber's preferences (global, or for one workflow). */
export interface SubscriberPreferenceRecord {
  /** false turns off every channel this level does not mention; null/undefined decides nothing. */
  enabled?: boolean | null;
  channels: ChannelFlags;
}

/** A workflow's default preferences, as the workflows API stores them (`{}` = all on, editable). */
export interface WorkflowPreferenceDefaults {
  all?: { enabled?: boolean; readOnly?: boolean };
  channels?: Partial<Record<ChannelType, { enabled?: boolean }>>;
}

/** What preferences and topic subscription rules need to know about a workflow. */
export interface WorkflowSettings {
  /** Internal id. */
  id: string;
  /** The trigger identifier. */
  identifier: string;
  name: string;
  critical: boolean;
  tags: string[];
  severity: Severity;
  data: Record<string, unknown> | null;
  defaults: WorkflowPreferenceDefaults;
  updatedAt: Date;
}

export const PREFERENCE_CRITICALITIES = ['nonCritical', 'critical', 'all'] as const;
export type PreferenceCriticality = (typeof PREFERENCE_CRITICALITIES)[number];

export function matchesCriticality(workflow: Pick<WorkflowSettings, 'critical'>, criticality: PreferenceCriticality): boolean {
  if (criticality === 'all') return true;
  return workflow.critical === (criticality === 'critical');
}

/** A workflow is referred to by its trigger identifier or its internal id. */
export function isWorkflowReference(workflow: Pick<WorkflowSettings, 'id' | 'identifier'>, reference: string): boolean {
  return workflow.identifier === reference || workflow.id === reference;
}
