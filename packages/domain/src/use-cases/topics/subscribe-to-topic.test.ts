import { describe, expect, it } from 'vitest';
import type { WorkflowSettings } from '../../entities/preferences';
import type { SubscriptionPreferenceRule, TopicSubscription } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import type { SubscribeItem, SubscribeResult, TopicRepository } from '../../ports/topic-repository';
import { SubscribeToTopic } from './subscribe-to-topic';

const topic = { id: 't1', environmentId: 'env', key: 'news', name: null, createdAt: new Date(0), updatedAt: new Date(0) };
const workflow: WorkflowSettings = {
  id: 'w1', identifier: 'digest', name: 'Digest', critical: false, tags: [], severity: 'none', data: null, defaults: {}, updatedAt: new Date(0),
};

/** Records what reaches the repository; subscribers named 'ghost*' do not exist, 'taken' identifiers belong elsewhere. */
function fakes() {
  const calls: Array<{ items: SubscribeItem[]; rules?: SubscriptionPreferenceRule[] }> = [];
  const topics = {
    async subscribe(_env: string, _topic: unknown, items: SubscribeItem[], rules?: SubscriptionPreferenceRule[]): Promise<SubscribeResult> {
      calls.push({ items, rules });
      const ok = items.filter((i) => !i.subscriberId.startsWith('ghost') && i.identifier !== 'taken');
      return {
        topic,
        subscriptions: ok.map((i) => ({ identifier: i.identifier, preferences: rules ?? [] }) as unknown as TopicSubscription),
        missing: items.filter((i) => i.subscriberId.startsWith('ghost')).map((i) => i.subscriberId),
        conflicts: items.filter((i) => i.identifier === 'taken'),
      };
    },
  } as unknown as TopicRepository;
  const preferences = { listWorkflowSettings: async () => [workflow] } as unknown as PreferenceRepository;
  return { calls, useCase: new SubscribeToTopic(topics, preferences) };
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as DomainError);

describe('SubscribeToTopic', () => {
  it('derives identifiers from topic, subscriber and sorted context, and deduplicates them', async () => {
    const { calls, useCase } = fakes();
    const out = await useCase.execute({ environmentId: 'env', topicKey: 'news', subscriptions: ['a', 'a'], context: { b: '2', a: { id: '1' } } });
    expect(calls[0].items).toEqual([{ subscriberId: 'a', identifier: 'tk_news:si_a:ctx_a:1,b:2', contextKeys: ['a:1', 'b:2'] }]);
    expect(out.meta).toEqual({ totalCount: 2, successful: 2, failed: 0 });
  });

  it('reports unknown subscribers and identifiers owned elsewhere, per item', async () => {
    const { useCase } = fakes();
    const out = await useCase.execute({
      environmentId: 'env',
      topicKey: 'news',
      subscriptions: ['a', { identifier: 'taken', subscriberId: 'b' }],
      subscriberIds: ['ghost-1'],
    });
    expect(out.errors.map((e) => [e.subscriberId, e.code])).toEqual([
      ['b', 'SUBSCRIPTION_IDENTIFIER_CONFLICT'],
      ['ghost-1', 'SUBSCRIBER_NOT_FOUND'],
    ]);
    expect(out.meta).toEqual({ totalCount: 3, successful: 1, failed: 2 });
  });

  it.each([
    ['101 in all', { subscriptions: Array(60).fill('a'), subscriberIds: Array(41).fill('b') }, 'subscriptions', /at most 100 .* got 101/],
    ['none', { subscriptions: [] }, 'subscriptions', /at least one/],
    ['six context entries', { subscriptions: ['a'], context: Object.fromEntries('abcdef'.split('').map((k) => [k, k])) }, 'context', /at most 5/],
    ['a malformed condition', { subscriptions: ['a'], preferences: [{ workflowId: 'digest', condition: { nope: [] } }] }, 'preferences[0].condition', /unknown operator/],
    ['an unknown workflow', { subscriptions: ['a'], preferences: ['digest', { filter: { workflowIds: ['ghost-flow'] } }] }, 'preferences[1].filter.workflowIds[0]', /not found/],
  ])('rejects %s with 422 naming the field, before writing', async (_name, input, field, message) => {
    const { calls, useCase } = fakes();
    const error = await failure(useCase.execute({ environmentId: 'env', topicKey: 'news', ...input }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error?.code).toBe('VALIDATION_FAILED');
    expect(error?.fields?.[field].messages.join(' ')).toMatch(message);
    expect(calls).toEqual([]);
  });

  it('normalises preference rules and presents them per workflow', async () => {
    const { calls, useCase } = fakes();
    const out = await useCase.execute({ environmentId: 'env', topicKey: 'news', subscriptions: ['a'], preferences: ['digest'] });
    expect(calls[0].rules).toEqual([{ workflowId: 'digest', enabled: true }]);
    expect(out.subscriptions[0].preferences).toEqual([{ workflow, enabled: true }]);
  });
});
