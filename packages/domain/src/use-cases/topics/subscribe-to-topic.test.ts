import { describe, expect, it } from 'vitest';
import type { SubscriptionPreferenceRule } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { SubscribeItem } from '../../ports/topic-repository';
import { InMemoryPreferenceRepository } from '../../testing/in-memory-preference-repository';
import { InMemoryStore } from '../../testing/in-memory-store';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { InMemoryTopicRepository } from '../../testing/in-memory-topic-repository';
import { InMemoryWorkflowRepository } from '../../testing/in-memory-workflow-repository';
import { draft } from '../../testing/workflow-repository-contract';
import { SubscribeToTopic } from './subscribe-to-topic';

/**
 * The shared doubles, recording what reaches the topic repository: subscribers 'a', 'b' and 'c'
 * exist ('ghost*' do not), the identifier 'taken' is c's, and the workflow 'digest' exists.
 */
async function fakes() {
  const store = new InMemoryStore();
  const subscribers = new InMemorySubscriberRepository(store);
  for (const subscriberId of ['a', 'b', 'c']) await subscribers.insert('env', { subscriberId });
  await new InMemoryWorkflowRepository(store).create('env', draft('digest', { name: 'Digest' }));
  const topics = new InMemoryTopicRepository(store);
  await topics.subscribe('env', { key: 'news' }, [{ subscriberId: 'c', identifier: 'taken', contextKeys: [] }]);
  const calls: Array<{ items: SubscribeItem[]; rules?: SubscriptionPreferenceRule[] }> = [];
  const subscribe = topics.subscribe.bind(topics);
  topics.subscribe = (env, topic, items, rules) => (calls.push({ items, rules }), subscribe(env, topic, items, rules));
  const preferences = new InMemoryPreferenceRepository(store);
  const workflow = (await preferences.findWorkflowSettings('env', 'digest'))!;
  return { calls, workflow, useCase: new SubscribeToTopic(topics, preferences) };
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as DomainError);

describe('SubscribeToTopic', () => {
  it('derives identifiers from topic, subscriber and sorted context, and deduplicates them', async () => {
    const { calls, useCase } = await fakes();
    const out = await useCase.execute({ environmentId: 'env', topicKey: 'news', subscriptions: ['a', 'a'], context: { b: '2', a: { id: '1' } } });
    expect(calls[0].items).toEqual([{ subscriberId: 'a', identifier: 'tk_news:si_a:ctx_a:1,b:2', contextKeys: ['a:1', 'b:2'] }]);
    expect(out.meta).toEqual({ totalCount: 2, successful: 2, failed: 0 });
  });

  it('reports unknown subscribers and identifiers owned elsewhere, per item', async () => {
    const { useCase } = await fakes();
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
    const { calls, useCase } = await fakes();
    const error = await failure(useCase.execute({ environmentId: 'env', topicKey: 'news', ...input }));
    expect(error).toBeInstanceOf(DomainError);
    expect(error?.code).toBe('VALIDATION_FAILED');
    expect(error?.fields?.[field].messages.join(' ')).toMatch(message);
    expect(calls).toEqual([]);
  });

  it('normalises preference rules and presents them per workflow', async () => {
    const { calls, workflow, useCase } = await fakes();
    const out = await useCase.execute({ environmentId: 'env', topicKey: 'news', subscriptions: ['a'], preferences: ['digest'] });
    expect(calls[0].rules).toEqual([{ workflowId: 'digest', enabled: true }]);
    expect(out.subscriptions[0].preferences).toEqual([{ workflow, enabled: true }]);
  });
});
