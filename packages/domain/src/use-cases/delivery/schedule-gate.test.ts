import { describe, expect, it } from 'vitest';
import type { DeliverySchedule } from '../../entities/delivery-schedule';
import type { JobOutcome, JobRepository, RunnableJob } from '../../ports/job-repository';
import { RunNotifications, stepVariables, type StepHandlers } from './run-notifications';
import { checkSchedule } from './schedule-gate';
import { InMemoryDigestRepository } from '../../testing/in-memory-digest-repository';
import { DelayStepHandler } from './steps/delay-step-handler';
import { DigestStepHandler } from './steps/digest-step-handler';
import type { StepHandler } from './steps/step-handler';

// Issue 44 acceptance: a trigger at 23:30 for a subscriber whose schedule opens at 08:00 in Tokyo is
// delivered at 08:00 Tokyo time, with the clock injected rather than slept.
const OPENS_AT_8 = (days: string[]): DeliverySchedule => ({
  isEnabled: true,
  weeklySchedule: Object.fromEntries(days.map((d) => [d, { isEnabled: true, hours: [{ start: '08:00 AM', end: '08:00 PM' }] }])),
});
const EVERY_DAY = OPENS_AT_8(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const TOKYO_2330 = new Date('2026-03-10T14:30:00.000Z'); // Tuesday 23:30 in Tokyo
const TOKYO_0800 = '2026-03-10T23:00:00.000Z'; // Wednesday 08:00 in Tokyo

function job(type: string, extra: { critical?: boolean; schedule?: DeliverySchedule | null; controlValues?: Record<string, unknown> } = {}): RunnableJob {
  return {
    jobId: `job-${type}`,
    notificationId: `n-${type}`,
    environmentId: 'env',
    transactionId: 'tx',
    attempts: 1,
    leased: true,
    step: { id: `step-${type}`, stepId: type, name: type, type, active: true, position: 0, controlValues: extra.controlValues ?? {}, skip: null, filters: [] },
    workflow: { id: 'wf', identifier: 'wf', name: 'wf', active: true, critical: extra.critical ?? false, severity: 'none', origin: 'novu-cloud', tags: [], data: null, preferences: {} },
    subscriber: { id: 'sub-uuid', subscriberId: 'sub', timezone: 'Asia/Tokyo', data: {}, channels: [] },
    schedule: extra.schedule === undefined ? EVERY_DAY : extra.schedule,
    payload: {},
    overrides: {},
    contextKeys: [],
    deliveryState: null,
    steps: {},
    preferences: { global: null, perWorkflow: null },
  } as unknown as RunnableJob;
}

/** Jobs that become due by the injected clock, as PostgreSQL's run_at does; outputs kept per step. */
function store(clock: { now: Date }, jobs: RunnableJob[]) {
  const runAt = new Map(jobs.map((j) => [j.notificationId, clock.now]));
  const recorded: JobOutcome[] = [];
  const repository: JobRepository = {
    async claim(ids) {
      return jobs.filter((j) => ids.includes(j.notificationId) && runAt.has(j.notificationId) && runAt.get(j.notificationId)! <= clock.now);
    },
    async record(outcomes) {
      for (const o of outcomes) {
        recorded.push(o);
        if (o.status === 'delayed') runAt.set(o.job.notificationId, o.rerunAt!);
        else runAt.delete(o.job.notificationId);
        if (o.output) o.job.steps[o.job.step.stepId] = { ...(o.job.steps[o.job.step.stepId] as object), ...o.output };
        o.job.attempts++;
      }
      return [];
    },
    heartbeat: async () => undefined,
    requeueStalled: async () => ({ events: 0, notifications: 0 }),
    inAppStates: async () => ({}),
  };
  return { repository, recorded, runAt };
}

/** A channel handler that notes when it sent. */
function sender(clock: { now: Date }) {
  const sent: string[] = [];
  const handler: StepHandler = {
    async run() {
      sent.push(clock.now.toISOString());
      return { status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: 'sent' }] };
    },
  };
  return { handler, sent };
}

function engine(clock: { now: Date }, jobs: RunnableJob[]) {
  const { handler, sent } = sender(clock);
  const handlers = Object.fromEntries(
    ['in_app', 'email', 'sms', 'chat', 'push', 'custom', 'http_request', 'digest', 'throttle'].map((t) => [t, handler]),
  ) as unknown as StepHandlers;
  handlers.delay = new DelayStepHandler(() => clock.now);
  const { repository, recorded, runAt } = store(clock, jobs);
  return { run: new RunNotifications(repository, handlers, undefined, () => clock.now), sent, recorded, runAt };
}

describe('channel steps wait for the subscriber schedule', () => {
  it('an email triggered at 23:30 in Tokyo waits, durable, until 08:00 Tokyo time and goes out then', async () => {
    const clock = { now: TOKYO_2330 };
    const email = job('email');
    const { run, sent, recorded, runAt } = engine(clock, [email]);
    await run.execute([email.notificationId]);
    expect(sent).toEqual([]);
    expect(recorded[0]).toMatchObject({ status: 'delayed', rerunAt: new Date(TOKYO_0800), output: { schedule: { waitedUntil: TOKYO_0800 } } });
    expect(recorded[0].details[0].detail).toBe(`outside the subscriber's delivery schedule: waiting until ${TOKYO_0800} (Wed 08:00 AM Asia/Tokyo)`);
    expect(runAt.get(email.notificationId)?.toISOString()).toBe(TOKYO_0800);

    clock.now = new Date('2026-03-10T22:59:59.999Z');
    await run.execute([email.notificationId]);
    expect(sent).toEqual([]);

    clock.now = new Date('2026-03-10T23:00:00.012Z');
    await run.execute([email.notificationId]);
    expect(sent).toEqual(['2026-03-10T23:00:00.012Z']);
    expect(recorded[1].status).toBe('completed');
    expect(recorded[1].details.map((d) => d.detail)).toEqual([`the subscriber's delivery schedule opened at ${TOKYO_0800}; sending 12 ms after it`, 'sent']);
  });

  it('a worker whose clock runs behind the database does not wait a second time', async () => {
    const clock = { now: TOKYO_2330 };
    const email = job('email');
    const { run, sent } = engine(clock, [email]);
    await run.execute([email.notificationId]);
    clock.now = new Date(TOKYO_0800);
    email.steps.email = { schedule: { waitedUntil: TOKYO_0800 } };
    clock.now = new Date(new Date(TOKYO_0800).getTime() - 3);
    // Claimed as due (the database's clock says so), run by a clock 3 ms behind.
    const outcome = await run.runOne(email);
    expect(outcome.status).toBe('completed');
    expect(sent).toHaveLength(1);
  });

  it.each<[string, RunnableJob]>([
    ['a critical workflow', job('email', { critical: true })],
    ['an in-app step', job('in_app')],
    ['a subscriber without a schedule', job('sms', { schedule: null })],
    ['a disabled schedule', job('push', { schedule: { ...EVERY_DAY, isEnabled: false } })],
    ['an empty week (treated as no schedule)', job('chat', { schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: false } } } })],
  ])('%s is not held', async (_name, held) => {
    const clock = { now: TOKYO_2330 };
    const { run, sent, recorded } = engine(clock, [held]);
    await run.execute([held.notificationId]);
    expect(sent).toEqual([TOKYO_2330.toISOString()]);
    expect(recorded[0].status).toBe('completed');
  });
});

describe('the cost for a subscriber without a schedule', () => {
  it('a channel step is let through without reading the clock (nothing but the claimed job is consulted)', () => {
    const clock = () => expect.unreachable('the clock is read only when a schedule or a wait is there') as never;
    for (const type of ['email', 'sms', 'chat', 'push']) expect(checkSchedule(job(type, { schedule: null }), clock)).toEqual({ go: null });
  });
});

describe('delay steps extend to the schedule', () => {
  it('a delay ending outside the schedule is moved to its next opening and counts one extension', async () => {
    const clock = { now: TOKYO_2330 };
    const delay = job('delay', { controlValues: { amount: 5, unit: 'minutes', extendToSchedule: true } });
    const result = await new DelayStepHandler(() => clock.now).run(delay, stepVariables(delay));
    expect(result).toMatchObject({ status: 'delayed', rerunAt: new Date(TOKYO_0800), output: { dueAt: TOKYO_0800 }, scheduleExtensions: 1 });
    expect(result.details[0].detail).toBe(`delayed until ${TOKYO_0800}, extended from 2026-03-10T14:35:00.000Z to the subscriber's delivery schedule (Wed 08:00 AM Asia/Tokyo)`);
  });

  it.each<[string, RunnableJob]>([
    ['without extendToSchedule', job('delay', { controlValues: { amount: 5, unit: 'minutes' } })],
    ['in a critical workflow', job('delay', { critical: true, controlValues: { amount: 5, unit: 'minutes', extendToSchedule: true } })],
    ['ending while the schedule is open', job('delay', { controlValues: { amount: 9, unit: 'hours', extendToSchedule: true } })],
  ])('a delay %s keeps its due time and counts none', async (_name, delay) => {
    const result = await new DelayStepHandler(() => TOKYO_2330).run(delay, stepVariables(delay));
    expect(result.status).toBe('delayed');
    expect(result.scheduleExtensions).toBeUndefined();
    expect(result.details[0].detail).not.toContain('extended');
  });

  it('the end of a wait is extended again when the schedule closed meanwhile', async () => {
    const delay = job('delay', { controlValues: { amount: 5, unit: 'minutes', extendToSchedule: true } });
    delay.steps.delay = { dueAt: '2026-03-10T14:35:00.000Z' };
    const result = await new DelayStepHandler(() => new Date('2026-03-10T14:35:00.010Z')).run(delay, stepVariables(delay));
    expect(result).toMatchObject({ status: 'delayed', rerunAt: new Date(TOKYO_0800), scheduleExtensions: 1 });
  });
});

describe('digest steps extend to the schedule', () => {
  it('the digest opened outside the schedule closes at its next opening; the opener counts one extension, a member none', async () => {
    const clock = () => TOKYO_2330;
    const digests = new DigestStepHandler(new InMemoryDigestRepository(clock), clock);
    const controls = { amount: 10, unit: 'minutes', extendToSchedule: true };
    const opener = job('digest', { controlValues: controls });
    const member = { ...job('digest', { controlValues: controls }), jobId: 'job-digest-2', notificationId: 'n-digest-2' } as RunnableJob;
    const [first, second] = await Promise.all([digests.run(opener, stepVariables(opener)), digests.run(member, stepVariables(member))]);
    expect(first).toMatchObject({ status: 'delayed', rerunAt: new Date(TOKYO_0800), scheduleExtensions: 1 });
    expect(first.details[0].detail).toMatch(/extended from 2026-03-10T14:40:00.000Z to the subscriber's delivery schedule \(Wed 08:00 AM Asia\/Tokyo\)$/);
    expect(second).toMatchObject({ status: 'merged' });
    expect(second.scheduleExtensions).toBeUndefined();
  });
});
