import { describe, expect, it } from 'vitest';
import type { WorkflowSettings } from '../entities/preferences';
import type { SubscriptionPreferenceRule } from '../entities/subscription';
import { describeSubscriptionPreferences, subscriptionAllows, type SubscriptionConditionData } from './subscription-allows';

const billing = { id: 'wf-1', identifier: 'invoice-paid', tags: ['billing'] };
const social = { id: 'wf-2', identifier: 'new-follower', tags: ['social'] };
const data: SubscriptionConditionData = { payload: { amount: 120, plan: 'pro' }, subscriber: { subscriberId: 'ada' }, context: { tenant: 'acme' } };
const premium = { '>=': [{ var: 'payload.amount' }, 100] };

type Row = [string, SubscriptionPreferenceRule[], typeof billing, boolean, RegExp?];
const rows: Row[] = [
  ['no rules: everything', [], billing, true],
  ['named by trigger identifier', [{ workflowId: 'invoice-paid', enabled: true }], billing, true],
  ['named by internal id', [{ workflowId: 'wf-1', enabled: true }], billing, true],
  ['an enabling rule makes an allow-list', [{ workflowId: 'invoice-paid', enabled: true }], social, false, /no preference .* 'new-follower'/],
  ['disabled by name', [{ workflowId: 'invoice-paid', enabled: false }], billing, false, /disabled/],
  ['disabling rules alone only exclude', [{ workflowId: 'invoice-paid', enabled: false }], social, true],
  ['group filter by tag', [{ filter: { tags: ['billing'] }, enabled: true }], billing, true],
  ['group filter by tag misses', [{ filter: { tags: ['billing'] }, enabled: true }], social, false],
  ['group filter by workflow ids', [{ filter: { workflowIds: ['new-follower'] }, enabled: true }], social, true],
  ['empty group filter covers all', [{ filter: {}, enabled: true }], social, true],
  ['named rule beats group rule', [{ workflowId: 'invoice-paid', enabled: true }, { filter: { tags: ['billing'] }, enabled: false }], billing, true],
  ['later group rule wins over earlier', [{ filter: {}, enabled: true }, { filter: { tags: ['billing'] }, enabled: false }], billing, false],
  ['condition met', [{ workflowId: 'invoice-paid', enabled: true, condition: premium }], billing, true],
  ['condition not met', [{ workflowId: 'invoice-paid', enabled: true, condition: { '==': [{ var: 'payload.plan' }, 'free'] } }], billing, false, /condition .* not met/],
  ['condition on context', [{ filter: {}, enabled: true, condition: { '==': [{ var: 'context.tenant' }, 'acme'] } }], social, true],
  ['condition that throws counts as false', [{ workflowId: 'invoice-paid', enabled: true, condition: { nope: [1] } }], billing, false, /condition failed/],
];

describe('subscriptionAllows', () => {
  it.each(rows)('%s', (_name, rules, workflow, allowed, reason) => {
    const decision = subscriptionAllows(rules, workflow, data);
    expect(decision.allowed).toBe(allowed);
    if (reason) expect(decision.reason).toMatch(reason);
    if (allowed) expect(decision.reason).toBeUndefined();
  });

  it('a condition selects one subscriber of two for the same payload', () => {
    const rules: SubscriptionPreferenceRule[] = [{ workflowId: 'invoice-paid', enabled: true, condition: { '==': [{ var: 'subscriber.data.region' }, { var: 'payload.region' }] } }];
    const payload = { region: 'eu' };
    const eu = subscriptionAllows(rules, billing, { payload, subscriber: { data: { region: 'eu' } }, context: {} });
    const us = subscriptionAllows(rules, billing, { payload, subscriber: { data: { region: 'us' } }, context: {} });
    expect([eu.allowed, us.allowed]).toEqual([true, false]);
  });
});

describe('describeSubscriptionPreferences', () => {
  const settings = (w: typeof billing): WorkflowSettings => ({ ...w, name: w.identifier, critical: false, severity: 'none', data: null, defaults: {}, updatedAt: new Date(0) });
  it('lists each workflow some rule decides, with that rule', () => {
    const described = describeSubscriptionPreferences(
      [{ filter: { tags: ['social'] }, enabled: false }, { workflowId: 'invoice-paid', enabled: true, condition: premium }],
      [settings(billing), settings(social)],
    );
    expect(described.map((d) => [d.workflow.identifier, d.enabled, d.condition])).toEqual([
      ['invoice-paid', true, premium],
      ['new-follower', false, undefined],
    ]);
  });
});
