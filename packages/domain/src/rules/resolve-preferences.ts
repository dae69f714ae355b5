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
 * THE preference resolution, for one channel: workflow defaults, then subscriber global, then
 * subscriber per-workflow; the most specific level that mentions the channel wins. The delivery
 * engine calls this for each channel step it runs (per recipient: a fan-out's hundred thousand),
 * so it resolves the one channel only and builds nothing else.
 */
export function resolveChannel({ workflow, global, perWorkflow }: ResolvePreferencesInput, channel: ChannelType): { enabled: boolean; source: PreferenceSource } {
  let enabled = workflow.defaults.channels?.[channel]?.enabled ?? workflow.defaults.all?.enabled ?? true;
  let source: PreferenceSource = 'workflow';
  if (isReadOnly(workflow)) return { enabled, source };
  const byGlobal = levelValue(global, channel);
  if (byGlobal !== undefined) {
    enabled = byGlobal;
    source = 'global';
  }
  const bySubscriber = levelValue(perWorkflow, channel);
  if (bySubscriber !== undefined) {
    enabled = bySubscriber;
    source = 'subscriber';
  }
  return { enabled, source };
}

/** Critical or read-only workflows ignore every subscriber preference. */
function isReadOnly(workflow: ResolvePreferencesInput['workflow']): boolean {
  return workflow.critical || workflow.defaults.all?.readOnly === true;
}

/** Every channel's resolution (`resolveChannel`), as the preferences API shows them. */
export function resolvePreferences(input: ResolvePreferencesInput): ResolvedPreferences {
  const channels = {} as Record<ChannelType, boolean>;
  const overrides: PreferenceOverride[] = [];
  for (const channel of CHANNEL_TYPES) {
    const { enabled, source } = resolveChannel(input, channel);
    channels[channel] = enabled;
    overrides.push({ channel, source });
  }
  return { enabled: Object.values(channels).some(Boolean), readOnly: isReadOnly(input.workflow), channels, overrides };
}
