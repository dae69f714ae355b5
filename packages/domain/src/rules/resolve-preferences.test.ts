import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../entities/channel';
import type { SubscriberPreferenceRecord, WorkflowPreferenceDefaults } from '../entities/preferences';
import { resolvePreferences, type PreferenceSource } from './resolve-preferences';

const ALL_OFF: SubscriberPreferenceRecord = { channels: { in_app: false, email: false, sms: false, chat: false, push: false } };
const on = (...off: ChannelType[]) =>
  Object.fromEntries((['in_app', 'email', 'sms', 'chat', 'push'] as const).map((c) => [c, !off.includes(c)]));
const sources = (s: Partial<Record<ChannelType, PreferenceSource>>) =>
  (['in_app', 'email', 'sms', 'chat', 'push'] as const).map((channel) => ({ channel, source: s[channel] ?? 'workflow' }));

type Row = {
  name: string;
  critical?: boolean;
  defaults?: WorkflowPreferenceDefaults;
  global?: SubscriberPreferenceRecord;
  perWorkflow?: SubscriberPreferenceRecord;
  channels: Record<string, boolean>;
  enabled: boolean;
  overrides: ReturnType<typeof sources>;
};

const rows: Row[] = [
  { name: 'no preferences anywhere: everything on', channels: on(), enabled: true, overrides: sources({}) },
  {
    name: 'workflow off by default',
    defaults: { all: { enabled: false } },
    channels: on('in_app', 'email', 'sms', 'chat', 'push'),
    enabled: false,
    overrides: sources({}),
  },
  {
    name: 'workflow default for one channel beats its all.enabled',
    defaults: { all: { enabled: false }, channels: { email: { enabled: true } } },
    channels: on('in_app', 'sms', 'chat', 'push'),
    enabled: true,
    overrides: sources({}),
  },
  {
    name: 'global off (every channel)',
    global: ALL_OFF,
    channels: on('in_app', 'email', 'sms', 'chat', 'push'),
    enabled: false,
    overrides: sources({ in_app: 'global', email: 'global', sms: 'global', chat: 'global', push: 'global' }),
  },
  {
    name: 'global enabled=false turns off what it does not mention',
    global: { enabled: false, channels: { sms: true } },
    channels: on('in_app', 'email', 'chat', 'push'),
    enabled: true,
    overrides: sources({ in_app: 'global', email: 'global', sms: 'global', chat: 'global', push: 'global' }),
  },
  {
    name: 'one channel off globally, the rest inherit',
    global: { channels: { sms: false } },
    channels: on('sms'),
    enabled: true,
    overrides: sources({ sms: 'global' }),
  },
  {
    name: 'per-workflow off for the whole workflow',
    perWorkflow: { enabled: false, channels: {} },
    channels: on('in_app', 'email', 'sms', 'chat', 'push'),
    enabled: false,
    overrides: sources({ in_app: 'subscriber', email: 'subscriber', sms: 'subscriber', chat: 'subscriber', push: 'subscriber' }),
  },
  {
    name: 'per-workflow turns one channel back on over global off',
    global: ALL_OFF,
    perWorkflow: { channels: { email: true } },
    channels: on('in_app', 'sms', 'chat', 'push'),
    enabled: true,
    overrides: sources({ in_app: 'global', email: 'subscriber', sms: 'global', chat: 'global', push: 'global' }),
  },
  {
    name: 'subscriber can turn on a channel the workflow has off',
    defaults: { channels: { push: { enabled: false } } },
    perWorkflow: { channels: { push: true } },
    channels: on(),
    enabled: true,
    overrides: sources({ push: 'subscriber' }),
  },
  {
    name: 'critical workflow with everything off at both subscriber levels',
    critical: true,
    global: ALL_OFF,
    perWorkflow: ALL_OFF,
    channels: on(),
    enabled: true,
    overrides: sources({}),
  },
  {
    name: 'read-only workflow ignores the subscriber and keeps its own defaults',
    defaults: { all: { enabled: true, readOnly: true }, channels: { chat: { enabled: false } } },
    global: ALL_OFF,
    channels: on('chat'),
    enabled: true,
    overrides: sources({}),
  },
];

describe('resolvePreferences', () => {
  it.each(rows)('$name', (row) => {
    const result = resolvePreferences({
      workflow: { critical: row.critical ?? false, defaults: row.defaults ?? {} },
      global: row.global,
      perWorkflow: row.perWorkflow,
    });
    expect(result.channels).toEqual(row.channels);
    expect(result.enabled).toBe(row.enabled);
    expect(result.overrides).toEqual(row.overrides);
    expect(result.readOnly).toBe(Boolean(row.critical || row.defaults?.all?.readOnly));
  });
});
