import { CHANNEL_TYPES, type ChannelType } from '../entities/channel';
import type { SubscriberPreferenceRecord, WorkflowPreferenceDefaults } from '../entities/preferences';

/**
 * The level whose value decided a channel: the workflow's defaults, the subscriber's global
 * preferences, or the subscriber's preferences for this workflow.
 */
export type PreferenceSource = 'workflow' | 'global' | 'subscriber';

export interface PreferenceOverride {
  channel: ChannelType;
  source: PreferenceSource;
}

export interface ResolvePreferencesInput {
  workflow: { critical: boolean; defaults: WorkflowPreferenceDefaults };
  global?: SubscriberPreferenceRecord | null;
  perWorkflow?: SubscriberPreferenceRecord | null;
}

export interface ResolvedPreferences {
  /** True when at least one channel delivers. */
  enabled: boolean;
  /** Critical or read-only workflows ignore every subscriber preference. */
  readOnly: boolean;
  channels: Record<ChannelType, boolean>;
  /** One entry per channel, in CHANNEL_TYPES order: which level decided it. */
  overrides: PreferenceOverride[];
}

function levelValue(record: SubscriberPreferenceRecord | null | undefined, channel: ChannelType): boolean | undefined {
  if (!record) return undefined;
  const value = record.channels[channel];
  if (typeof value === 'boolean') return value;
  return record.enabled === false ? false : undefined;
}

/**
 * THE preference resolution: workflow defaults, then subscriber global, then subscriber per-workflow;
 * the most specific level that mentions a channel wins. The delivery engine calls this per channel step.
 */
export function resolvePreferences({ workflow, global, perWorkflow }: ResolvePreferencesInput): ResolvedPreferences {
  const readOnly = workflow.critical || workflow.defaults.all?.readOnly === true;
  const allEnabled = workflow.defaults.all?.enabled ?? true;
  const levels: Array<[PreferenceSource, SubscriberPreferenceRecord | null | undefined]> = readOnly
    ? []
    : [
        ['global', global],
        ['subscriber', perWorkflow],
      ];
  const channels = {} as Record<ChannelType, boolean>;
  const overrides: PreferenceOverride[] = [];
  for (const channel of CHANNEL_TYPES) {
    let value = workflow.defaults.channels?.[channel]?.enabled ?? allEnabled;
    let source: PreferenceSource = 'workflow';
    for (const [level, record] of levels) {
      const decided = levelValue(record, channel);
      if (decided !== undefined) [value, source] = [decided, level];
    }
    channels[channel] = value;
    overrides.push({ channel, source });
  }
  return { enabled: Object.values(channels).some(Boolean), readOnly, channels, overrides };
}
