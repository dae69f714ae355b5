import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Severity } from '../entities/channel';
import type { JobStatus, JsonObject } from '../entities/delivery';
import type { ActivityRepository } from '../ports/activity-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import type { TopicRepository } from '../ports/topic-repository';
import type { WorkflowRepository } from '../ports/workflow-repository';
import { FIRST_UUID, LAST_UUID, type FanoutLane } from '../rules/fanout-lanes';
import { draft } from './workflow-repository-contract';

/** One trigger as the delivery engine stores it: a notification per recipient, without jobs. */
export interface ActivitySeed {
  transactionId: string;
  /** Trigger identifier of a workflow of the environment. */
  workflow: string;
  /** External subscriber ids. */
  recipients: string[];
  createdAt: Date;
  severity?: Severity;
  channels?: string[];
  contextKeys?: string[];
  payload?: JsonObject;
  /** Reached through this topic subscription (the recipient's). */
  subscription?: { topicKey: string; identifier: string };
  /** Its steps' statuses in order; the first is a step run inline (kept on the notification), the others jobs. */
  stepStatuses?: JobStatus[];
  /** Triggered to these topics; with lanes, still fanning out (done when none are given). */
  fanout?: { topicKeys: string[]; lanes?: FanoutLane[] };
}

export interface ActivityRepositoryFixture {
  repo: ActivityRepository;
  /** Write the rows the notifications refer to. */
  subscribers: SubscriberRepository;
  workflows: WorkflowRepository;
  topics: TopicRepository;
  /** Stores the trigger's notifications; their ids, in recipient order. */
  trigger(environmentId: string, seed: ActivitySeed): Promise<string[]>;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const T0 = Date.UTC(2030, 0, 1);
const minute = (n: number) => new Date(T0 + n * 60_000);
const first = { page: 0, limit: 50 };

/**
 * The behaviour every ActivityRepository has, run against the in-memory double and the SQL adapter:
 * which notifications a filter selects, their order, pages and environment. (How a notification's
 * jobs, details and messages are shown is the adapter's own test's and the end-to-end tests'.)
 */
export function activityRepositoryContract(name: string, setup: () => Promise<ActivityRepositoryFixture>): void {
  describe(`ActivityRepository contract: ${name}`, () => {
    const world = async (fixture: ActivityRepositoryFixture, env: string) => {
      const alerts = await fixture.workflows.create(env, draft('alerts', { name: 'Alerts', payloadSchema: { type: 'object', properties: { order: { type: 'number' } } } }));
      const digest = await fixture.workflows.create(env, draft('digest'));
      await fixture.subscribers.insert(env, { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com', phone: '+14155550101' });
      await fixture.subscribers.insert(env, { subscriberId: 'bob', email: 'bob@example.com' });
      return { alerts, digest };
    };

    it('lists newest first with subscriber and workflow, in pages, and finds one by id', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const { alerts } = await world(fixture, env);
      const [a1] = await fixture.trigger(env, { transactionId: 't1', workflow: 'alerts', recipients: ['ada'], createdAt: minute(1), payload: { order: 7 } });
      const [a3, b3] = await fixture.trigger(env, { transactionId: 't3', workflow: 'alerts', recipients: ['ada', 'bob'], createdAt: minute(3) });
      const [b2] = await fixture.trigger(env, { transactionId: 't2', workflow: 'digest', recipients: ['bob'], createdAt: minute(2) });
      const ids = (r: { notifications: Array<{ id: string }> }) => r.notifications.map((n) => n.id);
      const all = await fixture.repo.list(env, {}, first);
      expect(ids(all)).toEqual([[a3, b3].sort().reverse(), b2, a1].flat());
      expect((await fixture.repo.list(env, {}, { page: 1, limit: 2 }))).toMatchObject({ hasMore: false, notifications: [{ id: b2 }, { id: a1 }] });
      expect((await fixture.repo.list(env, {}, { page: 0, limit: 2 })).hasMore).toBe(true);
      expect((await fixture.repo.list(env, {}, { page: 2, limit: 2 })).notifications).toEqual([]);
      const found = await fixture.repo.findById(env, a1);
      expect(found).toMatchObject({
        id: a1,
        environmentId: env,
        transactionId: 't1',
        workflowId: alerts.id,
        subscriber: { subscriberId: 'ada', firstName: 'Ada', lastName: null, email: 'ada@example.com', phone: '+14155550101' },
        workflow: { id: alerts.id, identifier: 'alerts', name: 'Alerts', payloadVariables: ['order'] },
        payload: { order: 7 },
        createdAt: minute(1),
      });
      expect(all.notifications.find((n) => n.id === a1)).toEqual(found);
      for (const id of [randomUUID(), 'not-an-id']) expect(await fixture.repo.findById(env, id)).toBeNull();
      expect(await fixture.repo.findById(other, a1)).toBeNull();
      expect((await fixture.repo.list(other, {}, first)).notifications).toEqual([]);
    });

    it('selects by channel, workflow, recipient, severity, transaction, context, time and free search', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { alerts } = await world(fixture, env);
      const [a1] = await fixture.trigger(env, { transactionId: 't1', workflow: 'alerts', recipients: ['ada'], createdAt: minute(1), channels: ['email', 'in_app'], severity: 'high' });
      const [b2] = await fixture.trigger(env, { transactionId: 't2', workflow: 'digest', recipients: ['bob'], createdAt: minute(2), channels: ['sms'], contextKeys: ['app:web', 'tenant:acme'] });
      const [a3] = await fixture.trigger(env, { transactionId: 't3', workflow: 'alerts', recipients: ['ada'], createdAt: minute(3), channels: ['in_app'], severity: 'low' });
      const ids = async (filter: object) => (await fixture.repo.list(env, filter, first)).notifications.map((n) => n.id);
      expect(await ids({ channels: ['email', 'sms'] })).toEqual([b2, a1]);
      expect(await ids({ templates: ['alerts'] })).toEqual([a3, a1]);
      expect(await ids({ templates: [alerts.id, 'digest'] })).toEqual([a3, b2, a1]);
      expect(await ids({ emails: ['bob@example.com'] })).toEqual([b2]);
      expect(await ids({ subscriberIds: ['ada', 'nobody'] })).toEqual([a3, a1]);
      expect(await ids({ severity: ['high', 'medium'] })).toEqual([a1]);
      expect(await ids({ transactionId: 't2' })).toEqual([b2]);
      expect(await ids({ contextKeys: ['app:web', 'tenant:acme'] })).toEqual([b2]);
      expect(await ids({ contextKeys: [] })).toEqual([a3, a1]);
      expect(await ids({ after: minute(2), before: minute(3) })).toEqual([a3, b2]);
      expect(await ids({ search: 't1' })).toEqual([a1]);
      expect(await ids({ search: 'bob' })).toEqual([b2]);
      expect(await ids({ search: 'ada@example.com' })).toEqual([a3, a1]);
      expect(await ids({ subscriberIds: ['ada'], channels: ['email'] })).toEqual([a1]);
    });

    it('selects by the statuses of its steps, inline or queued', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      await world(fixture, env);
      const [sent] = await fixture.trigger(env, { transactionId: 't1', workflow: 'alerts', recipients: ['ada'], createdAt: minute(1), stepStatuses: ['completed', 'completed'] });
      const [failed] = await fixture.trigger(env, { transactionId: 't2', workflow: 'alerts', recipients: ['ada'], createdAt: minute(2), stepStatuses: ['completed', 'failed'] });
      const [waiting] = await fixture.trigger(env, { transactionId: 't3', workflow: 'alerts', recipients: ['bob'], createdAt: minute(3), stepStatuses: ['delayed'] });
      await fixture.trigger(env, { transactionId: 't4', workflow: 'alerts', recipients: ['bob'], createdAt: minute(4) });
      const ids = async (filter: object) => (await fixture.repo.list(env, filter, first)).notifications.map((n) => n.id);
      expect(await ids({ statuses: ['failed'] })).toEqual([failed]);
      expect(await ids({ statuses: ['completed'] })).toEqual([failed, sent]);
      expect(await ids({ statuses: ['delayed', 'failed'] })).toEqual([waiting, failed]);
      expect(await ids({ statuses: ['merged'] })).toEqual([]);
      expect(await ids({ statuses: ['completed'], subscriberIds: ['bob'] })).toEqual([]);
    });

    it('counts a trigger’s recipients expanded of its total, while it fans out and once it is done', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      await world(fixture, env);
      await fixture.subscribers.insert(env, { subscriberId: 'cy' });
      await fixture.topics.subscribe(env, { key: 'news' }, ['ada', 'bob', 'cy'].map((subscriberId) => ({ subscriberId, identifier: `news-${subscriberId}`, contextKeys: [] })));
      await fixture.topics.subscribe(env, { key: 'deals' }, [{ subscriberId: 'ada', identifier: 'deals-ada', contextKeys: [] }]);
      const rowIds = await Promise.all(['ada', 'bob', 'cy'].map(async (id) => ({ id, row: (await fixture.subscribers.findById(env, id))!.id })));
      const [lo, mid] = rowIds.sort((a, b) => (a.row < b.row ? -1 : 1));
      const [done] = await fixture.trigger(env, { transactionId: 't1', workflow: 'alerts', recipients: ['ada', 'bob', 'cy'], createdAt: minute(1), fanout: { topicKeys: ['news'] } });
      expect(await fixture.repo.triggerProgress(env, done)).toMatchObject({ transactionId: 't1', topicKeys: ['news'], status: 'fanned_out', recipients: 3, total: 3 });
      // Two expanded, in order of internal id; the lane goes on after the second; the first lane is done.
      const lanes = [{ after: FIRST_UUID, until: lo.row, done: true }, { after: mid.row, until: LAST_UUID, done: false }];
      const [running] = await fixture.trigger(env, { transactionId: 't2', workflow: 'alerts', recipients: [lo.id, mid.id], createdAt: minute(2), fanout: { topicKeys: ['news'], lanes } });
      expect(await fixture.repo.triggerProgress(env, running)).toMatchObject({ transactionId: 't2', status: 'fanning_out', recipients: 2, total: 3, fannedOutAt: null });
      const [direct] = await fixture.trigger(env, { transactionId: 't3', workflow: 'alerts', recipients: ['bob'], createdAt: minute(3) });
      expect(await fixture.repo.triggerProgress(env, direct)).toMatchObject({ topicKeys: [], status: 'fanned_out', recipients: 1, total: 1 });
      for (const id of [randomUUID(), 'not-an-id']) expect(await fixture.repo.triggerProgress(env, id)).toBeNull();
      expect(await fixture.repo.triggerProgress(other, done)).toBeNull();
    });

    it('selects what a topic reached, by topic key and by the subscription (its id or identifier)', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      await world(fixture, env);
      const { subscriptions } = await fixture.topics.subscribe(env, { key: 'news' }, [
        { subscriberId: 'ada', identifier: 'news-ada', contextKeys: [] },
        { subscriberId: 'bob', identifier: 'news-bob', contextKeys: [] },
      ]);
      const [direct] = await fixture.trigger(env, { transactionId: 't1', workflow: 'alerts', recipients: ['ada'], createdAt: minute(1) });
      const [viaAda] = await fixture.trigger(env, { transactionId: 't2', workflow: 'alerts', recipients: ['ada'], createdAt: minute(2), subscription: { topicKey: 'news', identifier: 'news-ada' } });
      const [viaBob] = await fixture.trigger(env, { transactionId: 't3', workflow: 'alerts', recipients: ['bob'], createdAt: minute(3), subscription: { topicKey: 'news', identifier: 'news-bob' } });
      const ids = async (filter: object) => (await fixture.repo.list(env, filter, first)).notifications.map((n) => n.id);
      expect(await ids({ topicKey: 'news' })).toEqual([viaBob, viaAda]);
      expect(await ids({ topicKey: 'other' })).toEqual([]);
      expect(await ids({ subscriptionId: 'news-ada' })).toEqual([viaAda]);
      expect(await ids({ subscriptionId: subscriptions[1].id })).toEqual([viaBob]);
      expect(await ids({ subscriptionId: 'unknown' })).toEqual([]);
      expect(await fixture.repo.findById(env, viaAda)).toMatchObject({ to: { type: 'Topic', topicKey: 'news' }, topics: [{ topicKey: 'news' }] });
      expect(await fixture.repo.findById(env, direct)).toMatchObject({ topics: [] });
    });
  });
}
