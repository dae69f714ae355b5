import { Novu } from '@novu/api';
import { subscriptionAllows, type SubscriptionPreferenceRule } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { insertWorkflows, queryDatabase } from './support/workflow-rows';

let svc: TestService;
let novu: Novu;
let environmentId: string;

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  const { result } = await novu.subscribers.createBulk({
    subscribers: [
      { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com', data: { region: 'eu' } },
      { subscriberId: 'bob', firstName: 'Bob', data: { region: 'us' } },
      { subscriberId: 'cy' },
    ],
  });
  expect(result.created).toHaveLength(3);
  environmentId = (await novu.subscribers.retrieve('ada')).result.environmentId;
});
afterAll(() => svc?.dispose());

describe('topics through the @novu/api SDK', () => {
  it('upserts, lists with filters and cursors, retrieves, renames and deletes a topic', async () => {
    const created = await novu.topics.create({ key: 'news', name: 'News' });
    expect(created.result).toMatchObject({ key: 'news', name: 'News' });
    const again = await novu.topics.create({ key: 'news', name: 'Daily news' });
    expect(again.result.id).toBe(created.result.id);
    await novu.topics.create({ key: 'sports' });
    await novu.topics.create({ key: 'weather', name: 'Weather news' });

    const byKey = await novu.topics.list({ key: 'news' });
    expect(byKey.result.data.map((t) => t.key)).toEqual(['news']);
    const byName = await novu.topics.list({ name: 'NEWS', orderDirection: 'ASC' });
    expect(byName.result.data.map((t) => t.key)).toEqual(['news', 'weather']);

    const first = await novu.topics.list({ limit: 2, orderDirection: 'ASC' });
    expect(first.result.data.map((t) => t.key)).toEqual(['news', 'sports']);
    expect(first.result.totalCount).toBe(3);
    const second = await novu.topics.list({ limit: 2, orderDirection: 'ASC', after: first.result.next! });
    expect(second.result.data.map((t) => t.key)).toEqual(['weather']);
    expect(second.result.next).toBeNull();

    const fetched = await novu.topics.get('news');
    expect(fetched.result).toMatchObject({ key: 'news', name: 'Daily news', createdAt: expect.any(String) });
    expect((await novu.topics.update({ name: 'Renamed' }, 'sports')).result).toMatchObject({ key: 'sports', name: 'Renamed' });

    await novu.topics.subscriptions.create({ subscriptions: ['ada'] }, 'weather');
    expect((await novu.topics.delete('weather')).result).toEqual({ acknowledged: true });
    await expect(novu.topics.get('weather')).rejects.toMatchObject({ statusCode: 404 });
    const adaTopics = await novu.subscribers.topics.list({ subscriberId: 'ada', key: 'weather' });
    expect(adaTopics.result.data).toEqual([]);
    await expect(novu.topics.update({ name: 'x' }, 'nope')).rejects.toMatchObject({ statusCode: 404 });
    const conflict = await svc.request('/v2/topics?failIfExists=true', { method: 'POST', json: { key: 'news' } });
    expect(conflict.status).toBe(409);
  });

  it('subscribes (creating the topic), reports unknown subscribers, and never duplicates', async () => {
    const { result } = await novu.topics.subscriptions.create({ subscriptions: ['ada', 'ghost', { identifier: 'bob-main', subscriberId: 'bob' }], name: 'Launch' }, 'launch');
    expect(result.meta).toEqual({ totalCount: 3, successful: 2, failed: 1 });
    expect(result.errors).toEqual([{ subscriberId: 'ghost', code: 'SUBSCRIBER_NOT_FOUND', message: expect.stringContaining('ghost') }]);
    expect(result.data.map((s) => [s.identifier, s.subscriber?.subscriberId, s.topic.key])).toEqual([
      ['tk_launch:si_ada', 'ada', 'launch'],
      ['bob-main', 'bob', 'launch'],
    ]);
    expect(result.data[0].subscriber).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
    expect((await novu.topics.get('launch')).result.name).toBe('Launch');

    const twice = await novu.topics.subscriptions.create({ subscriptions: ['ada'], subscriberIds: ['cy'] }, 'launch');
    expect(twice.result.meta).toEqual({ totalCount: 2, successful: 2, failed: 0 });
    expect(twice.result.data[0].id).toBe(result.data[0].id);
    const listed = await novu.topics.subscriptions.list({ topicKey: 'launch', limit: 100 });
    expect(listed.result.totalCount).toBe(3);
    expect(listed.result.data.map((s) => s.subscriber.subscriberId).sort()).toEqual(['ada', 'bob', 'cy']);
    const onlyBob = await novu.topics.subscriptions.list({ topicKey: 'launch', subscriberId: 'bob' });
    expect(onlyBob.result.data.map((s) => s.identifier)).toEqual(['bob-main']);
  });

  it('accepts 100 subscriptions in one request and refuses 101, naming the limit', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `bulk-${i}`);
    await novu.subscribers.createBulk({ subscribers: ids.map((subscriberId) => ({ subscriberId })) });
    const hundred = await novu.topics.subscriptions.create({ subscriptions: ids.slice(0, 100) }, 'hundred');
    expect(hundred.result.meta).toEqual({ totalCount: 100, successful: 100, failed: 0 });
    expect((await novu.topics.subscriptions.list({ topicKey: 'hundred', limit: 1 })).result.totalCount).toBe(100);

    const tooMany = await svc.request('/v2/topics/hundred-one/subscriptions', {
      method: 'POST',
      json: { subscriptions: ids.slice(0, 100), subscriberIds: ids.slice(100) },
    });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).message).toMatch(/at most 100/);
    await expect(novu.topics.get('hundred-one')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.topics.subscriptions.list({ topicKey: 'hundred', limit: 101 })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('stores context as sorted keys and filters by them exactly, in either order', async () => {
    const ctx = await novu.topics.subscriptions.create({ subscriptions: ['ada'], context: { tenant: 'acme', app: 'web' } }, 'ctx');
    expect(ctx.result.data[0].contextKeys).toEqual(['app:web', 'tenant:acme']);
    const plain = await novu.topics.subscriptions.create({ subscriptions: ['ada'] }, 'ctx');
    expect(plain.result.data[0].identifier).not.toBe(ctx.result.data[0].identifier);
    await novu.topics.subscriptions.create({ subscriptions: ['ada'], context: { tenant: 'acme' } }, 'ctx');

    for (const order of [['app:web', 'tenant:acme'], ['tenant:acme', 'app:web']]) {
      const topicList = await novu.topics.subscriptions.list({ topicKey: 'ctx', contextKeys: order });
      expect(topicList.result.data.map((s) => s.identifier)).toEqual([ctx.result.data[0].identifier]);
      const subscriberList = await novu.subscribers.topics.list({ subscriberId: 'ada', contextKeys: order });
      expect(subscriberList.result.data.map((s) => s.identifier)).toEqual([ctx.result.data[0].identifier]);
    }
    // Default identifiers carry ':' and ',', and still work as path parameters.
    const byIdentifier = await novu.topics.subscriptions.getSubscription('ctx', ctx.result.data[0].identifier!);
    expect(byIdentifier.result).toMatchObject({ identifier: 'tk_ctx:si_ada:ctx_app:web,tenant:acme', contextKeys: ['app:web', 'tenant:acme'] });
    const adaOnCtx = await novu.subscribers.topics.list({ subscriberId: 'ada', key: 'ctx' });
    expect(adaOnCtx.result.totalCount).toBe(3);
    expect(adaOnCtx.result.data.every((s) => s.topic.key === 'ctx')).toBe(true);

    const six = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [k, k]));
    const tooWide = await svc.request('/v2/topics/ctx/subscriptions', { method: 'POST', json: { subscriptions: ['ada'], context: six } });
    expect(tooWide.status).toBe(422);
    expect((await tooWide.json()).errors).toHaveProperty('context');
  });

  it('pages a subscriber subscriptions, and answers 404 for unknown subscribers and topics', async () => {
    for (const key of ['p1', 'p2', 'p3']) await novu.topics.subscriptions.create({ subscriptions: ['cy'] }, key);
    const first = await novu.subscribers.topics.list({ subscriberId: 'cy', limit: 2, orderDirection: 'ASC' });
    expect(first.result.data).toHaveLength(2);
    const rest = await novu.subscribers.topics.list({ subscriberId: 'cy', limit: 2, orderDirection: 'ASC', after: first.result.next! });
    const keys = [...first.result.data, ...rest.result.data].map((s) => s.topic.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(['p1', 'p2', 'p3']));
    await expect(novu.subscribers.topics.list({ subscriberId: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.topics.subscriptions.list({ topicKey: 'no-such-topic' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('removes subscriptions by subscriber id and by identifier, reporting what matched nothing', async () => {
    await novu.topics.subscriptions.create({ subscriptions: ['ada', 'cy', { identifier: 'bob-rm', subscriberId: 'bob' }] }, 'rm');
    const { result } = await novu.topics.subscriptions.delete({ subscriptions: ['ada', { identifier: 'bob-rm' }, 'ghost'] }, 'rm');
    expect(result.data.map((s) => s.identifier).sort()).toEqual(['bob-rm', 'tk_rm:si_ada']);
    expect(result.meta).toEqual({ totalCount: 3, successful: 2, failed: 1 });
    expect(result.errors).toEqual([{ subscriberId: 'ghost', code: 'SUBSCRIPTION_NOT_FOUND', message: expect.any(String) }]);
    const left = await novu.topics.subscriptions.list({ topicKey: 'rm' });
    expect(left.result.data.map((s) => s.subscriber.subscriberId)).toEqual(['cy']);
    await expect(novu.topics.subscriptions.delete({ subscriptions: ['ada'] }, 'no-such-topic')).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('subscription preferences and conditions', () => {
  const region = { '==': [{ var: 'subscriber.data.region' }, { var: 'payload.region' }] };

  beforeAll(async () => {
    await insertWorkflows(svc.databaseUrl, environmentId, [
      { workflowId: 'order-shipped', name: 'Order shipped', tags: ['orders'] },
      { workflowId: 'promo', name: 'Promo', tags: ['marketing'] },
    ]);
  });

  it('stores rules, presents them per workflow, and a condition selects one subscriber of two', async () => {
    const { result } = await novu.topics.subscriptions.create(
      { subscriptions: ['ada', 'bob'], preferences: [{ workflowId: 'order-shipped', condition: region }, { filter: { tags: ['marketing'] }, enabled: false }] },
      'orders',
    );
    expect(result.meta.successful).toBe(2);
    expect(result.data[0].preferences).toEqual([
      { subscriptionId: result.data[0].id, workflow: expect.objectContaining({ identifier: 'order-shipped', name: 'Order shipped', critical: false, severity: 'none' }), enabled: true, condition: region },
      { subscriptionId: result.data[0].id, workflow: expect.objectContaining({ identifier: 'promo', tags: ['marketing'] }), enabled: false },
    ]);

    const stored = await queryDatabase<{ subscriber_id: string; data: Record<string, unknown>; preferences: SubscriptionPreferenceRule[] }>(
      svc.databaseUrl,
      `SELECT s.subscriber_id, s.data, ts.preferences FROM topic_subscriptions ts
       JOIN subscribers s ON s.id = ts.subscriber_id JOIN topics t ON t.id = ts.topic_id
       WHERE t.key = 'orders' ORDER BY s.subscriber_id`,
    );
    const workflow = { id: 'internal', identifier: 'order-shipped', tags: ['orders'] };
    const decisions = stored.map((row) => [
      row.subscriber_id,
      subscriptionAllows(row.preferences, workflow, { payload: { region: 'eu' }, subscriber: { subscriberId: row.subscriber_id, data: row.data }, context: {} }).allowed,
    ]);
    expect(decisions).toEqual([
      ['ada', true],
      ['bob', false],
    ]);
    const promo = subscriptionAllows(stored[0].preferences, { id: 'x', identifier: 'promo', tags: ['marketing'] }, { payload: {}, subscriber: {}, context: {} });
    expect(promo).toEqual({ allowed: false, reason: expect.stringContaining('disabled') });
  });

  it('retrieves and patches one subscription', async () => {
    await novu.topics.subscriptions.create({ subscriptions: [{ identifier: 'cy-orders', subscriberId: 'cy', name: 'Cy' }], preferences: ['promo'] }, 'orders');
    const fetched = await novu.topics.subscriptions.getSubscription('orders', 'cy-orders');
    expect(fetched.result).toMatchObject({ identifier: 'cy-orders', name: 'Cy', contextKeys: [] });
    expect(fetched.result.preferences?.map((p) => [p.workflow?.identifier, p.enabled])).toEqual([['promo', true]]);

    const patched = await novu.topics.subscriptions.update({
      topicKey: 'orders',
      identifier: 'cy-orders',
      updateTopicSubscriptionRequestDto: { name: 'Cy orders', preferences: [{ workflowId: 'order-shipped', enabled: true }] },
    });
    expect(patched.result).toMatchObject({ identifier: 'cy-orders', name: 'Cy orders', topic: { key: 'orders' } });
    expect(patched.result.preferences?.map((p) => p.workflow?.identifier)).toEqual(['order-shipped']);
    await expect(novu.topics.subscriptions.getSubscription('orders', 'nope')).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      novu.topics.subscriptions.update({ topicKey: 'orders', identifier: 'nope', updateTopicSubscriptionRequestDto: { name: 'x' } }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('rejects a malformed condition or an unknown workflow with 422 naming the field', async () => {
    const bad = await svc.request('/v2/topics/orders/subscriptions', {
      method: 'POST',
      json: { subscriptions: ['ada'], preferences: [{ workflowId: 'promo', condition: { nope: [1] } }] },
    });
    expect(bad.status).toBe(422);
    const body = await bad.json();
    expect(body.errors).toHaveProperty(['preferences[0].condition']);
    expect(body.message).toMatch(/unknown operator 'nope'/);

    const unknown = await svc.request('/v2/topics/orders/subscriptions/cy-orders', { method: 'PATCH', json: { preferences: ['ghost-flow'] } });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors).toHaveProperty(['preferences[0]']);
  });
});
