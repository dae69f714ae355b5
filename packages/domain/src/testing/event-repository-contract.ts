import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DeliveryWorkflow, TriggerAcceptance } from '../entities/delivery';
import type { SubscriberInput } from '../entities/subscriber';
import type { WorkflowStep } from '../entities/workflow';
import type { ActivityRepository } from '../ports/activity-repository';
import type { EventRepository } from '../ports/event-repository';
import type { JobOutcome } from '../ports/job-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import type { TopicRepository } from '../ports/topic-repository';
import type { WorkflowRepository } from '../ports/workflow-repository';
import { inlineJob, type InlineRecipient } from '../use-cases/delivery/inline-step';
import { draft } from './workflow-repository-contract';

export interface EventRepositoryFixture {
  events: EventRepository;
  /** Write what triggers name. */
  workflows: WorkflowRepository;
  subscribers: SubscriberRepository;
  topics: TopicRepository;
  /** Reads what was written. */
  activity: ActivityRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const step = (stepId: string, type: WorkflowStep['type']): Omit<WorkflowStep, 'id'> => ({ stepId, name: stepId, type, controlValues: { body: 'Hi {{subscriber.firstName}}' }, skip: null });

/** A trigger of `workflow` as TriggerEvent hands it over. */
function acceptance(environmentId: string, workflow: DeliveryWorkflow, to: { ids?: string[]; objects?: SubscriberInput[]; topics?: TriggerAcceptance['recipients']['topics'] }, extra: Partial<TriggerAcceptance> = {}): TriggerAcceptance {
  const objects = to.objects ?? [];
  return {
    environmentId,
    workflow,
    transactionId: `tx-${randomUUID()}`,
    payload: { order: 7 },
    overrides: {},
    to: [...(to.ids ?? []), ...objects, ...(to.topics ?? []).map((t) => ({ type: 'Topic', ...t }))],
    actor: null,
    tenant: null,
    contextKeys: [],
    recipients: { subscriberIds: [...(to.ids ?? []), ...objects.map((o) => o.subscriberId)], upserts: objects, topics: to.topics ?? [] },
    upserts: objects,
    ...extra,
  };
}

/**
 * The behaviour every EventRepository has, run against the SQL adapter: workflows for triggers, the
 * one-transaction acceptance (subscriber objects, notifications and jobs, a first in-app step run
 * inline, transactionId once), and topic fan-out in keyset chunks. It has no in-memory double: see
 * docs/swap-an-adapter.md.
 */
export function eventRepositoryContract(name: string, setup: () => Promise<EventRepositoryFixture>): void {
  describe(`EventRepository contract: ${name}`, () => {
    const world = async (steps: Array<Omit<WorkflowStep, 'id'>>) => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const created = await fixture.workflows.create(env, draft('flow', { steps }));
      await fixture.subscribers.insert(env, { subscriberId: 'ada', firstName: 'Ada' });
      const workflow = (await fixture.events.findWorkflow(env, 'flow'))!;
      const notifications = async (transactionId: string) => (await fixture.activity.list(env, { transactionId }, { page: 0, limit: 50 })).notifications;
      return { ...fixture, env, created, workflow, notifications };
    };

    it('finds the workflow a trigger names, by identifier or id, with its steps in order, in its environment', async () => {
      const { events, created, workflow, environments: [env, other] } = await world([step('mail', 'email'), step('inbox', 'in_app')]);
      expect(workflow).toMatchObject({ id: created.id, identifier: 'flow', active: true, preferences: {} });
      expect(workflow.steps.map((s) => [s.id, s.stepId, s.type, s.position, s.active])).toEqual([
        [created.steps[0].id, 'mail', 'email', 0, true],
        [created.steps[1].id, 'inbox', 'in_app', 1, true],
      ]);
      expect(await events.findWorkflow(env, created.id)).toMatchObject({ identifier: 'flow' });
      expect(await events.findWorkflow(env, 'unknown')).toBeNull();
      expect(await events.findWorkflow(other, 'flow')).toBeNull();
    });

    it('accepts in one go: subscriber objects applied, a notification per recipient with a job per step, the first one queued', async () => {
      const { events, subscribers, env, workflow, notifications } = await world([step('mail', 'email'), step('after', 'custom')]);
      const trigger = acceptance(env, workflow, { ids: ['ada'], objects: [{ subscriberId: 'bob', firstName: 'Bob' }] });
      expect(await events.accept(trigger)).toEqual({ accepted: true, eventId: expect.any(String), notifications: 2, inline: [] });
      expect(await subscribers.findById(env, 'bob')).toMatchObject({ firstName: 'Bob' });
      const written = await notifications(trigger.transactionId);
      expect(written.map((n) => n.subscriber.subscriberId).sort()).toEqual(['ada', 'bob']);
      for (const n of written) expect(n.jobs.map((j) => [j.step.stepId, j.status])).toEqual([['mail', 'queued'], ['after', 'pending']]);
    });

    it('commits nothing for a transactionId the environment used before', async () => {
      const { events, subscribers, workflows, env, workflow, notifications, environments: [, other] } = await world([step('mail', 'email')]);
      const first = acceptance(env, workflow, { ids: ['ada'] });
      await events.accept(first);
      const again = acceptance(env, workflow, { objects: [{ subscriberId: 'ada', firstName: 'Changed' }, { subscriberId: 'new' }] }, { transactionId: first.transactionId });
      expect(await events.accept(again)).toEqual({ accepted: false, reason: 'duplicate_transaction' });
      expect(await subscribers.findById(env, 'ada')).toMatchObject({ firstName: 'Ada' });
      expect(await subscribers.findById(env, 'new')).toBeNull();
      expect(await notifications(first.transactionId)).toHaveLength(1);
      // Unique per environment only.
      await subscribers.insert(other, { subscriberId: 'ada' });
      await workflows.create(other, draft('flow', { steps: [step('mail', 'email')] }));
      expect(await events.accept({ ...first, environmentId: other, workflow: (await events.findWorkflow(other, 'flow'))! })).toMatchObject({ accepted: true });
    });

    it('runs a first in-app step inline for the recipients, as their objects leave them, and queues the next', async () => {
      const { events, env, workflow, notifications } = await world([step('inbox', 'in_app'), step('mail', 'email')]);
      const seen: InlineRecipient[] = [];
      const runInline = async (recipients: InlineRecipient[], source: Parameters<typeof inlineJob>[0]): Promise<JobOutcome[]> => {
        seen.push(...recipients);
        return recipients.map((r) => ({
          job: inlineJob(source, r, workflow.steps[0]),
          status: 'completed',
          details: [{ status: 'Success', source: 'Internal', detail: 'stored' }],
          message: { channel: 'in_app', providerId: null, integrationId: null, destination: null, subject: null, body: `Hi ${r.recipient.firstName}`, status: 'sent' },
        }));
      };
      const trigger = acceptance(env, workflow, { objects: [{ subscriberId: 'ada', firstName: 'Augusta' }] });
      const outcome = await events.accept(trigger, runInline);
      expect(seen.map((r) => [r.recipient.subscriberId, r.recipient.firstName])).toEqual([['ada', 'Augusta']]);
      if (!outcome.accepted) throw new Error('not accepted');
      expect(outcome.inline.map((o) => [o.job.notificationId, o.message?.body])).toEqual([[seen[0].notificationId, 'Hi Augusta']]);
      const [written] = await notifications(trigger.transactionId);
      expect(written.id).toBe(seen[0].notificationId);
      expect(written.jobs.map((j) => [j.step.stepId, j.status, j.message?.body ?? null])).toEqual([['inbox', 'completed', 'Hi Augusta'], ['mail', 'queued', null]]);
    });

    it('fans a topic out in keyset chunks: no excluded subscriber, no actor, no second notification for a direct recipient', async () => {
      const { events, subscribers, topics, env, workflow, notifications } = await world([step('mail', 'email')]);
      for (const id of ['bob', 'cy', 'dan', 'eve']) await subscribers.insert(env, { subscriberId: id });
      await topics.subscribe(env, { key: 'news' }, ['ada', 'bob', 'cy', 'dan', 'eve'].map((id) => ({ subscriberId: id, identifier: `news-${id}`, contextKeys: [] })));
      const trigger = acceptance(env, workflow, { ids: ['ada'], topics: [{ topicKey: 'news', exclude: ['dan'] }] }, { actor: { subscriberId: 'cy' } });
      const outcome = await events.accept(trigger);
      if (!outcome.accepted) throw new Error('not accepted');
      const event = (await events.loadFanout(outcome.eventId))!;
      expect(event).toMatchObject({ status: 'fanning_out', topics: [{ topicKey: 'news', exclude: ['dan'] }], actorSubscriberId: 'cy', directRecipients: true, transactionId: trigger.transactionId });
      const [lane] = event.lanes;
      expect(await events.fanoutExceeds(event, lane, 5)).toBe(false);
      expect(await events.fanoutExceeds(event, lane, 2)).toBe(true);
      const expected = await Promise.all(['ada', 'bob', 'eve'].map(async (id) => (await subscribers.findById(env, id))!.id));
      const all = await events.fanoutCandidates(event, lane, 10);
      expect(all.map((c) => c.subscriberId)).toEqual([...expected].sort());
      expect(all.map((c) => c.topicKey)).toEqual(['news', 'news', 'news']);
      expect((await events.fanoutCandidates(event, lane, 2)).map((c) => c.subscriberId)).toEqual([...expected].sort().slice(0, 2));
      const progress = { from: lane, index: 0, lane: { ...lane, after: all[2].subscriberId, done: true } };
      const written = await events.commitFanoutChunk(event, all, progress, []);
      expect(written.sort()).toEqual(all.filter((c) => c.recipient.subscriberId !== 'ada').map((c) => c.notificationId).sort());
      expect((await events.loadFanout(outcome.eventId))!.status).toBe('fanned_out');
      // A run that started from progress another run moved commits nothing.
      await expect(events.commitFanoutChunk(event, await events.fanoutCandidates(event, lane, 10), progress, [])).rejects.toThrow();
      expect((await notifications(trigger.transactionId)).map((n) => n.subscriber.subscriberId).sort()).toEqual(['ada', 'bob', 'eve']);
      expect(await events.loadFanout(randomUUID())).toBeNull();
    });
  });
}
