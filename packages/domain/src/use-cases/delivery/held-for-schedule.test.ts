import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DeliverySchedule } from '../../entities/delivery-schedule';
import type { WorkflowStep } from '../../entities/workflow';
import { InMemoryJobRepository } from '../../testing/in-memory-job-repository';
import { InMemoryPreferenceRepository } from '../../testing/in-memory-preference-repository';
import { InMemoryStore } from '../../testing/in-memory-store';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { InMemoryWorkflowRepository } from '../../testing/in-memory-workflow-repository';
import { draft } from '../../testing/workflow-repository-contract';
import { RunNotifications, type StepHandlers } from './run-notifications';
import { DelayStepHandler } from './steps/delay-step-handler';
import type { StepHandler } from './steps/step-handler';

// Issue 44 acceptance, through the job double that the contract suite holds to the SQL adapter: a
// trigger at 23:30 for a subscriber whose schedule opens at 08:00 in Asia/Tokyo is delivered at
// 08:00 Tokyo time, by an injected clock (nothing sleeps). The in-app step and a critical workflow
// go out at 23:30.
const TUESDAY_2330_TOKYO = new Date('2026-03-10T14:30:00.000Z');
const WEDNESDAY_0800_TOKYO = new Date('2026-03-10T23:00:00.000Z');
const WEEKDAYS_8_TO_8: DeliverySchedule = {
  isEnabled: true,
  weeklySchedule: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, { isEnabled: true, hours: [{ start: '08:00 AM', end: '08:00 PM' }] }]),
  ),
};

const step = (stepId: string, type: WorkflowStep['type'], controlValues: Record<string, unknown> = { body: stepId }) => ({ stepId, name: stepId, type, controlValues, skip: null });

/**
 * Handlers that note the clock's time each step of a type ran (what the engine decides, not how a
 * provider sends). `renderMs`: how far a channel step's synchronous work (rendering) moves the clock.
 */
function recordingHandlers(clock: { now: Date }, renderMs: number) {
  const ran: Array<[string, string]> = [];
  const note = (type: string): StepHandler => ({
    async run(job) {
      if (type !== 'in_app') clock.now = new Date(clock.now.getTime() + renderMs);
      ran.push([`${job.workflow.identifier}/${job.step.stepId}`, clock.now.toISOString()]);
      return { status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: `${type} sent` }] };
    },
  });
  const handlers = Object.fromEntries(['in_app', 'email', 'sms', 'chat', 'push', 'custom', 'http_request', 'digest', 'throttle'].map((t) => [t, note(t)]));
  return { ran, handlers: { ...handlers, delay: new DelayStepHandler(() => clock.now) } as unknown as StepHandlers };
}

async function world(renderMs = 0) {
  const clock = { now: TUESDAY_2330_TOKYO };
  const store = new InMemoryStore();
  const jobs = new InMemoryJobRepository(store, () => clock.now);
  const env = randomUUID();
  const workflows = new InMemoryWorkflowRepository(store);
  await new InMemorySubscriberRepository(store).insert(env, { subscriberId: 'kenji', timezone: 'Asia/Tokyo' });
  await new InMemoryPreferenceRepository(store).setSchedule(env, 'kenji', WEEKDAYS_8_TO_8);
  const { ran, handlers } = recordingHandlers(clock, renderMs);
  const engine = new RunNotifications(jobs, handlers, undefined, () => clock.now);
  const trigger = async (workflowId: string, steps: ReturnType<typeof step>[], critical = false) => {
    const workflow = await workflows.create(env, draft(workflowId, { steps, critical }));
    const subscriberRowId = store.subscriber(env, 'kenji')!.id;
    return jobs.notify({ environmentId: env, workflowId: workflow.id, subscriberRowId, transactionId: randomUUID(), payload: {}, overrides: {}, contextKeys: [] });
  };
  return { clock, jobs, engine, ran, trigger };
}

describe('a trigger at 23:30 for a Tokyo subscriber whose schedule opens at 08:00', () => {
  it('sends the in-app step and the critical email at 23:30, and the email at 08:00 Tokyo time, once', async () => {
    const { clock, jobs, engine, ran, trigger } = await world();
    const held = await trigger('order-shipped', [step('bell', 'in_app'), step('mail', 'email')]);
    const urgent = await trigger('password-reset', [step('mail', 'email')], true);
    await engine.execute([held, urgent]);
    expect([...ran].sort()).toEqual([
      ['order-shipped/bell', TUESDAY_2330_TOKYO.toISOString()],
      ['password-reset/mail', TUESDAY_2330_TOKYO.toISOString()],
    ]);
    const waiting = jobs.jobs.find((j) => j.notificationId === held && j.status === 'delayed')!;
    expect(waiting.runAt).toEqual(WEDNESDAY_0800_TOKYO);
    expect(jobs.details.find((d) => d.jobId === waiting.id)?.detail).toBe(
      `outside the subscriber's delivery schedule: waiting until ${WEDNESDAY_0800_TOKYO.toISOString()} (Wed 08:00 AM Asia/Tokyo)`,
    );

    // A millisecond before the opening the email is not yet due; at the opening it goes out.
    clock.now = new Date(WEDNESDAY_0800_TOKYO.getTime() - 1);
    await engine.execute([held]);
    expect(ran.filter(([name]) => name === 'order-shipped/mail')).toEqual([]);
    clock.now = new Date(WEDNESDAY_0800_TOKYO.getTime() + 15);
    await engine.execute([held]);
    await engine.execute([held]);
    expect(ran.filter(([name]) => name === 'order-shipped/mail')).toEqual([['order-shipped/mail', '2026-03-10T23:00:00.015Z']]);
    expect(jobs.jobs.filter((j) => j.notificationId === held).map((j) => j.status)).toEqual(['completed', 'completed']);
    expect(jobs.details.filter((d) => d.jobId === waiting.id).map((d) => d.detail).slice(1)).toEqual([
      `the subscriber's delivery schedule opened at ${WEDNESDAY_0800_TOKYO.toISOString()}; sending 15 ms after it`,
      'email sent',
    ]);
  });

  it('a delay that extends to the schedule ends at 08:00 Tokyo time, and the email after it goes out then', async () => {
    const { clock, jobs, engine, ran, trigger } = await world();
    const id = await trigger('reminder', [step('wait', 'delay', { amount: 5, unit: 'minutes', extendToSchedule: true }), step('mail', 'email')]);
    await engine.execute([id]);
    const delay = jobs.jobs.find((j) => j.notificationId === id && j.status === 'delayed')!;
    expect(delay.runAt).toEqual(WEDNESDAY_0800_TOKYO);
    clock.now = new Date(WEDNESDAY_0800_TOKYO.getTime() + 4);
    await engine.execute([id]);
    expect(ran).toEqual([['reminder/mail', '2026-03-10T23:00:00.004Z']]);
  });

  it('emails claimed together when the schedule opens all end their wait at the claim, not after the ones ahead of them rendered', async () => {
    const { clock, jobs, engine, trigger } = await world(40);
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await trigger(`order-${i}`, [step('mail', 'email')]));
    await engine.execute(held);
    clock.now = new Date(WEDNESDAY_0800_TOKYO.getTime() + 10);
    await engine.execute(held);
    const opened = jobs.details.filter((d) => d.detail.startsWith("the subscriber's delivery schedule opened")).map((d) => d.detail);
    expect(opened).toEqual(Array(3).fill(`the subscriber's delivery schedule opened at ${WEDNESDAY_0800_TOKYO.toISOString()}; sending 10 ms after it`));
  });
});
