import { describe, expect, it } from 'vitest';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import type { SubscriptionOrderBy, TopicOrderBy, TopicRepository } from '../ports/topic-repository';
import type { CursorQuery } from '../shared/pagination';
import { expectCursorPagination } from './cursor-page-contract';

export interface TopicRepositoryFixture {
  topics: TopicRepository;
  /** Writes the subscribers the topics see. */
  subscribers: SubscriberRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const all = { limit: 50, orderBy: 'createdAt', orderDirection: 'ASC', includeCursor: false } as const;
const item = (subscriberId: string, identifier = `sub-${subscriberId}`, extra: { name?: string; contextKeys?: string[] } = {}) => ({
  subscriberId,
  identifier,
  contextKeys: [],
  ...extra,
});
const rule = (workflowId: string, enabled = false) => ({ workflowId, enabled });

/** The behaviour every TopicRepository has; run against the in-memory double and the SQL adapter. */
export function topicRepositoryContract(name: string, setup: () => Promise<TopicRepositoryFixture>): void {
  describe(`TopicRepository contract: ${name}`, () => {
    it('upserts a topic: creates it, renames it when a name is given, and otherwise leaves it as it is', async () => {
      const { topics, environments: [env] } = await setup();
      const { topic, created } = await topics.upsertTopic(env, { key: 'news', name: 'News' });
      expect(created).toBe(true);
      expect(topic).toMatchObject({ environmentId: env, key: 'news', name: 'News' });
      expect(await topics.upsertTopic(env, { key: 'news' })).toEqual({ topic, created: false });
      const renamed = await topics.upsertTopic(env, { key: 'news', name: 'Headlines' });
      expect(renamed).toMatchObject({ created: false, topic: { id: topic.id, name: 'Headlines', createdAt: topic.createdAt } });
      expect(renamed.topic.updatedAt.getTime()).toBeGreaterThanOrEqual(topic.updatedAt.getTime());
      expect(await topics.findTopic(env, 'news')).toEqual(renamed.topic);
      expect(await topics.findTopic(env, 'unknown')).toBeNull();
    });

    it('keeps environments apart', async () => {
      const { topics, subscribers, environments: [env, other] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const mine = (await topics.subscribe(env, { key: 'news' }, [item('ada')])).topic;
      const theirs = await topics.upsertTopic(other, { key: 'news' });
      expect(theirs.created).toBe(true);
      expect(theirs.topic.id).not.toBe(mine.id);
      // A subscriber of one environment is unknown in the other.
      expect(await topics.subscribe(other, { key: 'news' }, [item('ada')])).toMatchObject({ subscriptions: [], missing: ['ada'] });
      expect(await topics.findSubscription(other, 'news', 'sub-ada')).toBeNull();
      expect(await topics.updateSubscription(other, 'news', 'sub-ada', { name: 'x' })).toBeNull();
      expect(await topics.updateTopic(other, 'unknown', { name: 'x' })).toBeNull();
      expect((await topics.searchSubscriptions(other, {}, all)).data).toEqual([]);
      expect((await topics.searchTopics(other, {}, all)).data.map((t) => t.id)).toEqual([theirs.topic.id]);
      expect(await topics.deleteTopic(other, 'news')).toBe(true);
      expect(await topics.findSubscription(env, 'news', 'sub-ada')).not.toBeNull();
    });

    it('searches topics by exact key and by name, case-insensitively, in pages', async () => {
      const { topics, environments: [env] } = await setup();
      for (const [key, name] of [['b', 'Weekly News'], ['B', 'Daily NEWS'], ['a', 'Offers'], ['c', null]] as const) {
        await topics.upsertTopic(env, { key, ...(name ? { name } : {}) });
      }
      const keys = async (filter: object) => (await topics.searchTopics(env, filter, { ...all, orderBy: 'key' })).data.map((t) => t.key);
      expect(await keys({ key: 'b' })).toEqual(['b']);
      expect(await keys({ name: 'news' })).toEqual(['B', 'b']);
      const list = (query: CursorQuery<TopicOrderBy>) => topics.searchTopics(env, {}, query);
      await expectCursorPagination(list, 'key', ['B', 'a', 'b', 'c'], (t) => t.key);
    });

    it('updates and deletes a topic; its subscriptions go with it', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      await topics.subscribe(env, { key: 'news' }, [item('ada')]);
      expect(await topics.updateTopic(env, 'news', { name: 'Renamed' })).toMatchObject({ key: 'news', name: 'Renamed' });
      expect(await topics.deleteTopic(env, 'news')).toBe(true);
      expect(await topics.deleteTopic(env, 'news')).toBe(false);
      expect(await topics.findTopic(env, 'news')).toBeNull();
      expect((await topics.searchSubscriptions(env, {}, all)).data).toEqual([]);
      // Subscribing again starts afresh.
      expect((await topics.subscribe(env, { key: 'news' }, [item('ada')])).subscriptions).toHaveLength(1);
    });

    it('subscribes in input order, reporting unknown subscribers and identifiers that belong to another topic or subscriber', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      for (const id of ['ada', 'bob']) await subscribers.insert(env, { subscriberId: id, firstName: id.toUpperCase(), email: `${id}@example.com` });
      await topics.subscribe(env, { key: 'other' }, [item('bob', 'taken-by-topic')]);
      await topics.subscribe(env, { key: 'news' }, [item('bob', 'taken-by-bob')]);
      const result = await topics.subscribe(
        env,
        { key: 'news', name: 'News' },
        [item('bob', 'b-1', { name: 'Bob', contextKeys: ['tenant:acme'] }), item('ghost'), item('ada', 'a-1'), item('ada', 'taken-by-topic'), item('ada', 'taken-by-bob')],
        [rule('wf')],
      );
      expect(result.topic).toMatchObject({ key: 'news', name: 'News' });
      expect(result.subscriptions.map((s) => [s.identifier, s.subscriber.subscriberId, s.name, s.contextKeys, s.preferences])).toEqual([
        ['b-1', 'bob', 'Bob', ['tenant:acme'], [rule('wf')]],
        ['a-1', 'ada', null, [], [rule('wf')]],
      ]);
      expect(result.subscriptions[0].subscriber).toEqual({ id: expect.any(String), subscriberId: 'bob', firstName: 'BOB', lastName: null, email: 'bob@example.com', avatar: null });
      expect(result.subscriptions[0].topic).toEqual(result.topic);
      expect(result.missing).toEqual(['ghost']);
      expect(result.conflicts).toEqual([item('ada', 'taken-by-topic'), item('ada', 'taken-by-bob')]);
    });

    it('subscribing an identifier again updates that subscription: context replaced, name and rules kept unless given', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const [first] = (await topics.subscribe(env, { key: 'news' }, [item('ada', 'a-1', { name: 'Ada', contextKeys: ['tenant:a'] })], [rule('wf')])).subscriptions;
      const [again] = (await topics.subscribe(env, { key: 'news' }, [item('ada', 'a-1', { contextKeys: ['tenant:b'] })])).subscriptions;
      expect(again).toMatchObject({ id: first.id, name: 'Ada', contextKeys: ['tenant:b'], preferences: [rule('wf')], createdAt: first.createdAt });
      const [replaced] = (await topics.subscribe(env, { key: 'news' }, [item('ada', 'a-1')], [rule('other', true)])).subscriptions;
      expect(replaced).toMatchObject({ id: first.id, preferences: [rule('other', true)] });
      expect((await topics.searchSubscriptions(env, {}, all)).totalCount).toBe(1);
    });

    it('unsubscribes by identifier or every subscription of a subscriber, reporting targets that matched nothing', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      for (const id of ['ada', 'bob']) await subscribers.insert(env, { subscriberId: id });
      await topics.subscribe(env, { key: 'news' }, [item('ada', 'a-1'), item('ada', 'a-2', { contextKeys: ['tenant:x'] }), item('bob', 'b-1')]);
      const result = await topics.unsubscribe(env, 'news', [{ subscriberId: 'ada' }, { identifier: 'nope' }, { identifier: 'b-1', subscriberId: 'ada' }]);
      expect(result!.removed.map((s) => s.identifier).sort()).toEqual(['a-1', 'a-2']);
      expect(result!.notFound).toEqual([{ identifier: 'nope' }, { identifier: 'b-1', subscriberId: 'ada' }]);
      expect((await topics.unsubscribe(env, 'news', [{ identifier: 'b-1' }]))!.removed.map((s) => s.subscriber.subscriberId)).toEqual(['bob']);
      expect((await topics.searchSubscriptions(env, {}, all)).data).toEqual([]);
      expect(await topics.unsubscribe(env, 'unknown', [{ identifier: 'a-1' }])).toBeNull();
    });

    it('finds, searches and pages subscriptions by topic, subscriber and exact context', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      for (const id of ['ada', 'bob']) await subscribers.insert(env, { subscriberId: id });
      await topics.subscribe(env, { key: 'news' }, [item('ada', 'n-ada'), item('bob', 'n-bob', { contextKeys: ['app:web', 'tenant:acme'] })]);
      await topics.subscribe(env, { key: 'offers' }, [item('ada', 'o-ada', { contextKeys: ['tenant:acme'] })]);
      const ids = async (filter: object) => (await topics.searchSubscriptions(env, filter, all)).data.map((s) => s.identifier).sort();
      expect(await ids({ topicKey: 'news' })).toEqual(['n-ada', 'n-bob']);
      expect(await ids({ subscriberId: 'ada' })).toEqual(['n-ada', 'o-ada']);
      expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual(['o-ada']);
      expect(await ids({ contextKeys: [] })).toEqual(['n-ada']);
      expect(await ids({ topicKey: 'unknown' })).toEqual([]);
      expect(await topics.findSubscription(env, 'news', 'n-bob')).toMatchObject({ identifier: 'n-bob', topic: { key: 'news' }, subscriber: { subscriberId: 'bob' } });
      expect(await topics.findSubscription(env, 'offers', 'n-bob')).toBeNull();
      const all3 = (await topics.searchSubscriptions(env, {}, all)).data;
      const order = [...all3].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1)).map((s) => s.identifier);
      const list = (query: CursorQuery<SubscriptionOrderBy>) => topics.searchSubscriptions(env, {}, query);
      await expectCursorPagination(list, 'createdAt', order, (s) => s.identifier);
    });

    it('updates a subscription by topic and identifier: the name and rules given, null when there is none', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const [created] = (await topics.subscribe(env, { key: 'news' }, [item('ada', 'a-1', { name: 'Old' })], [rule('wf')])).subscriptions;
      const renamed = await topics.updateSubscription(env, 'news', 'a-1', { name: 'New' });
      expect(renamed).toMatchObject({ id: created.id, name: 'New', preferences: [rule('wf')] });
      expect(await topics.updateSubscription(env, 'news', 'a-1', { preferences: [] })).toMatchObject({ name: 'New', preferences: [] });
      expect(await topics.updateSubscription(env, 'other', 'a-1', { name: 'x' })).toBeNull();
      expect(await topics.updateSubscription(env, 'news', 'unknown', { name: 'x' })).toBeNull();
    });

    it('drops the subscriptions of a deleted subscriber', async () => {
      const { topics, subscribers, environments: [env] } = await setup();
      for (const id of ['ada', 'bob']) await subscribers.insert(env, { subscriberId: id });
      await topics.subscribe(env, { key: 'news' }, [item('ada'), item('bob')]);
      await subscribers.delete(env, 'ada');
      expect((await topics.searchSubscriptions(env, { topicKey: 'news' }, all)).data.map((s) => s.subscriber.subscriberId)).toEqual(['bob']);
    });
  });
}
