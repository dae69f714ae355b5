import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../entities/channel';
import type { SubscriberPreferenceRecord, WorkflowPreferenceDefaults } from '../entities/preferences';
import { resolveChannel, resolvePreferences, type PreferenceSource } from './resolve-preferences';

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

describe('resolveChannel', () => {
  // The rule as written before the engine resolved one channel at a time: the most specific level
  // that mentions the channel wins; a critical or read-only workflow hears no subscriber level.
  const before = (workflow: { critical: boolean; defaults: WorkflowPreferenceDefaults }, levels: Array<[PreferenceSource, SubscriberPreferenceRecord | null]>, c: ChannelType) => {
    let result = { enabled: workflow.defaults.channels?.[c]?.enabled ?? workflow.defaults.all?.enabled ?? true, source: 'workflow' as PreferenceSource };
    if (workflow.critical || workflow.defaults.all?.readOnly === true) return result;
    for (const [source, record] of levels) {
      const value = record ? (typeof record.channels[c] === 'boolean' ? record.channels[c] : record.enabled === false ? false : undefined) : undefined;
      if (value !== undefined) result = { enabled: value, source };
    }
    return result;
  };

  it('decides a channel as the rule did, for any defaults and subscriber levels', () => {
    const channel = fc.constantFrom(...(['in_app', 'email', 'sms', 'chat', 'push'] as const));
    const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const record = fc.record({ enabled: maybe(fc.boolean()), channels: fc.dictionary(channel, fc.boolean()) }) as fc.Arbitrary<SubscriberPreferenceRecord>;
    const defaults = fc.record(
      { all: maybe(fc.record({ enabled: maybe(fc.boolean()), readOnly: maybe(fc.boolean()) })), channels: maybe(fc.dictionary(channel, fc.record({ enabled: fc.boolean() }))) },
      { requiredKeys: [] },
    ) as fc.Arbitrary<WorkflowPreferenceDefaults>;
    fc.assert(
      fc.property(fc.boolean(), defaults, fc.option(record, { nil: null }), fc.option(record, { nil: null }), channel, (critical, d, global, perWorkflow, c) => {
        const workflow = { critical, defaults: d };
        const expected = before(workflow, [['global', global], ['subscriber', perWorkflow]], c);
        expect(resolveChannel({ workflow, global, perWorkflow }, c)).toEqual(expected);
        const all = resolvePreferences({ workflow, global, perWorkflow });
        expect([all.channels[c], all.overrides.find((o) => o.channel === c)!.source]).toEqual([expected.enabled, expected.source]);
      }),
      { numRuns: 500 },
    );
  });
});
