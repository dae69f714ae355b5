import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JsonObject, StepResult } from '../entities/delivery';
import type { WorkflowStep } from '../entities/workflow';
import type { JobOutcome, JobRepository, RunnableJob } from '../ports/job-repository';
import type { PreferenceRepository } from '../ports/preference-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import type { WorkflowRepository } from '../ports/workflow-repository';
import { draft } from './workflow-repository-contract';

/** What a trigger writes for one recipient. */
export interface NotificationSeed {
  /** Internal workflow id. */
  workflowId: string;
  /** External subscriber id. */
  subscriberId: string;
  transactionId: string;
  payload: JsonObject;
  overrides?: JsonObject;
  contextKeys?: string[];
}

export interface JobRepositoryFixture {
  jobs: JobRepository;
  /** Write what the jobs refer to. */
  workflows: WorkflowRepository;
  subscribers: SubscriberRepository;
  preferences: PreferenceRepository;
  /** Writes the notification with one job per workflow step, the first queued, as a trigger does; its id. */
  notify(environmentId: string, seed: NotificationSeed): Promise<string>;
  /** What the inbox does when the subscriber reads the in-app message a job stored (seen, then read). */
  readMessage(jobId: string): Promise<void>;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const step = (stepId: string, type: WorkflowStep['type']): Omit<WorkflowStep, 'id'> => ({ stepId, name: stepId, type, controlValues: { body: stepId }, skip: null });
const done = (job: RunnableJob, extra: Partial<StepResult> = {}): JobOutcome => ({
  job,
  status: 'completed',
  details: [{ status: 'Success', source: 'Internal', detail: `ran ${job.step.stepId}` }],
  ...extra,
});

/** The behaviour every JobRepository has; run against the in-memory double and the SQL adapter. */
export function jobRepositoryContract(name: string, setup: () => Promise<JobRepositoryFixture>): void {
  describe(`JobRepository contract: ${name}`, () => {
    /** A workflow of these steps and a subscriber 'ada' in a fresh environment; notify() for them. */
    const world = async (steps: Array<Omit<WorkflowStep, 'id'>>) => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const workflow = await fixture.workflows.create(env, draft('flow', { steps, critical: true, preferences: { all: { enabled: true } } }));
      await fixture.subscribers.insert(env, { subscriberId: 'ada', firstName: 'Ada' });
      const notify = (extra: Partial<NotificationSeed> = {}) =>
        fixture.notify(env, { workflowId: workflow.id, subscriberId: 'ada', transactionId: `t-${randomUUID()}`, payload: { n: 1 }, ...extra });
      return { ...fixture, env, workflow, notify };
    };

    it('claims the due job of each notification with what its step needs; unknown ones are left out', async () => {
      const { jobs, env, workflow, notify, preferences } = await world([step('inbox', 'in_app'), step('mail', 'email')]);
      await preferences.mergeSubscriberPreference(env, 'ada', null, { email: false });
      const id = await notify({ transactionId: 'tx-1', payload: { order: 7 }, overrides: { email: { from: 'x' } }, contextKeys: ['tenant:acme'] });
      const claimed = await jobs.claim([id, randomUUID()]);
      expect(claimed).toHaveLength(1);
      expect(claimed[0]).toMatchObject({
        notificationId: id,
        environmentId: env,
        transactionId: 'tx-1',
        attempts: 1,
        leased: false,
        step: { id: workflow.steps[0].id, stepId: 'inbox', type: 'in_app', position: 0, controlValues: { body: 'inbox' }, skip: null },
        workflow: { id: workflow.id, identifier: 'flow', critical: true, preferences: { all: { enabled: true } } },
        subscriber: { subscriberId: 'ada', firstName: 'Ada' },
        payload: { order: 7 },
        overrides: { email: { from: 'x' } },
        contextKeys: ['tenant:acme'],
        deliveryState: null,
        steps: {},
        preferences: { global: { channels: { email: false } }, perWorkflow: null },
        schedule: null,
      });
      expect(await jobs.claim([])).toEqual([]);
    });

    it("claims a job with its subscriber's delivery schedule", async () => {
      const { jobs, env, notify, preferences } = await world([step('mail', 'email')]);
      const week = { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '08:00 AM', end: '06:00 PM' }] } } };
      await preferences.setSchedule(env, 'ada', week);
      const [claimed] = await jobs.claim([await notify()]);
      expect(claimed.schedule).toEqual(week);
    });

    it('leases a step with side effects until recorded; a step without is read again, and its first result recorded is kept', async () => {
      const mail = await world([step('mail', 'email'), step('after', 'custom')]);
      const leasedId = await mail.notify();
      const [leased] = await mail.jobs.claim([leasedId]);
      expect({ leased: leased.leased, attempts: leased.attempts }).toEqual({ leased: true, attempts: 1 });
      await mail.jobs.heartbeat([leased.jobId]);
      expect(await mail.jobs.claim([leasedId])).toEqual([]);

      const inbox = await world([step('inbox', 'in_app'), step('after', 'custom')]);
      const id = await inbox.notify();
      const [first] = await inbox.jobs.claim([id]);
      const [second] = await inbox.jobs.claim([id]);
      expect([first.jobId, first.leased, second.attempts]).toEqual([second.jobId, false, 1]);
      expect(await inbox.jobs.record([done(first, { output: { by: 'first' } })])).toEqual([id]);
      expect(await inbox.jobs.record([done(second, { output: { by: 'second' } })])).toEqual([]);
      const [next] = await inbox.jobs.claim([id]);
      expect(next).toMatchObject({ step: { stepId: 'after', position: 1 }, steps: { inbox: { by: 'first' } } });
    });

    it('queues the next step when one completes, schedules it for its time, or cancels the rest on a halt', async () => {
      const { jobs, notify } = await world([step('a', 'in_app'), step('b', 'in_app'), step('c', 'in_app')]);
      const [now, later, halted] = [await notify(), await notify(), await notify()];
      const claimed = await jobs.claim([now, later, halted]);
      const of = (id: string) => claimed.find((j) => j.notificationId === id)!;
      const due = await jobs.record([done(of(now)), done(of(later), { nextRunAt: new Date(Date.now() + 3_600_000) }), done(of(halted), { status: 'skipped', halt: true })]);
      expect(due).toEqual([now]);
      expect((await jobs.claim([now, later, halted])).map((j) => [j.notificationId, j.step.stepId])).toEqual([[now, 'b']]);
      const [b] = await jobs.claim([now]);
      expect(await jobs.record([done(b)])).toEqual([now]);
      const [c] = await jobs.claim([now]);
      expect(await jobs.record([done(c)])).toEqual([]);
      expect(await jobs.claim([now])).toEqual([]);
    });

    it('runs a step that asks to again at its time, as the next attempt, with what it kept', async () => {
      const { jobs, notify } = await world([step('mail', 'email'), step('after', 'custom')]);
      const [soon, later] = [await notify(), await notify()];
      const first = await jobs.claim([soon, later]);
      const of = (id: string) => first.find((j) => j.notificationId === id)!;
      const retry = (job: RunnableJob, rerunAt: Date) => ({ job, status: 'delayed' as const, rerunAt, deliveryState: { tries: 1 }, details: [] });
      expect(await jobs.record([retry(of(soon), new Date(Date.now() - 1_000)), retry(of(later), new Date(Date.now() + 3_600_000))])).toEqual([]);
      const again = await jobs.claim([soon, later]);
      expect(again.map((j) => [j.notificationId, j.jobId, j.attempts, j.deliveryState])).toEqual([[soon, of(soon).jobId, 2, { tries: 1 }]]);
      // The first attempt's late result no longer holds the job: it is dropped.
      expect(await jobs.record([done(of(soon))])).toEqual([]);
      expect(await jobs.record([done(again[0])])).toEqual([soon]);
    });

    it("tells the state of the in-app messages a notification's steps stored, by stepId, in its environment only", async () => {
      const { jobs, notify, env, environments, readMessage } = await world([step('bell', 'in_app'), step('later', 'in_app'), step('after', 'custom')]);
      const id = await notify();
      const inApp = { channel: 'in_app' as const, providerId: null, integrationId: null, destination: null, subject: null, body: 'hi', status: 'sent' as const };
      expect(await jobs.inAppStates(env, id)).toEqual({});
      const [bell] = await jobs.claim([id]);
      await jobs.record([done(bell, { message: inApp })]);
      expect(await jobs.inAppStates(env, id)).toEqual({ bell: { seen: false, read: false, lastSeenDate: null, lastReadDate: null } });
      const before = Date.now();
      await readMessage(bell.jobId);
      const [later] = await jobs.claim([id]);
      await jobs.record([done(later, { message: inApp })]);
      const states = await jobs.inAppStates(env, id);
      expect(states).toEqual({ bell: { seen: true, read: true, lastSeenDate: expect.any(Date), lastReadDate: expect.any(Date) }, later: { seen: false, read: false, lastSeenDate: null, lastReadDate: null } });
      expect(states.bell.lastReadDate!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(await jobs.inAppStates(environments[1], id)).toEqual({});
      expect(await jobs.inAppStates(env, randomUUID())).toEqual({});
    });

    it('leaves out a job whose subscriber was deleted, and sweeps up due work untouched for the idle time given', async () => {
      const { jobs, notify, subscribers, env } = await world([step('inbox', 'in_app')]);
      const kept = await notify();
      await subscribers.insert(env, { subscriberId: 'gone' });
      const orphan = await notify({ subscriberId: 'gone' });
      await subscribers.delete(env, 'gone');
      expect((await jobs.claim([kept, orphan])).map((j) => j.notificationId)).toEqual([kept]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await jobs.requeueStalled(20)).notifications).toBeGreaterThanOrEqual(1);
      // Nothing has been idle for a minute: the jobs were queued or swept just now.
      expect(await jobs.requeueStalled(60_000)).toEqual({ events: 0, notifications: 0 });
    });
  });
}
