import { describe, expect, it } from 'vitest';
import type { DigestEntry, DigestPlace, DigestRepository } from '../../../ports/digest-repository';
import type { RunnableJob } from '../../../ports/job-repository';
import type { ThrottleEntry } from '../../../ports/throttle-repository';
import { InMemoryThrottleRepository } from '../../../testing/in-memory-throttle-repository';
import { stepVariables } from '../run-notifications';
import { DelayStepHandler } from './delay-step-handler';
import { DigestStepHandler } from './digest-step-handler';
import { ThrottleStepHandler } from './throttle-step-handler';

const NOW = new Date('2026-03-02T10:00:00.000Z'); // a Monday
const clock = () => NOW;

function job(type: string, controlValues: Record<string, unknown>, extra: Partial<RunnableJob> = {}): RunnableJob {
  return {
    jobId: `job-${Math.random()}`,
    notificationId: 'n-1',
    environmentId: 'env',
    transactionId: 'tx',
    attempts: 1,
    leased: true,
    step: { id: 'step-1', stepId: 'wait', name: 'wait', type, active: true, position: 0, controlValues, skip: null, filters: [] },
    workflow: { id: 'wf', identifier: 'wf', name: 'wf', active: true, critical: false, severity: 'none', origin: 'novu-cloud', tags: [], data: null, preferences: {} },
    subscriber: { id: 'sub-uuid', subscriberId: 'sub', timezone: null, data: {} },
    payload: { sendAt: '2026-03-02T10:05:00.000Z', postId: 'p1' },
    overrides: {},
    contextKeys: [],
    steps: {},
    preferences: { global: null, perWorkflow: null },
    ...extra,
  } as unknown as RunnableJob;
}

const run = (handler: { run: DelayStepHandler['run'] }, j: RunnableJob) => handler.run(j, stepVariables(j));

describe('DelayStepHandler', () => {
  const delay = new DelayStepHandler(clock);
  it.each([
    ['regular', { amount: 90, unit: 'seconds' }, null, '2026-03-02T10:01:30.000Z', { type: 'regular', amount: 90, unit: 'seconds' }],
    ['timed cron in the subscriber timezone', { type: 'timed', cron: '0 9 * * *' }, 'Europe/Berlin', '2026-03-03T08:00:00.000Z', { type: 'timed', timed: { cronExpression: '0 9 * * *' } }],
    ['timed fields', { type: 'timed', timed: { atTime: '12:00', weekDays: ['wednesday'] } }, null, '2026-03-04T12:00:00.000Z', { type: 'timed', timed: { atTime: '12:00', weekDays: ['wednesday'] } }],
    ['dynamic', { type: 'dynamic', dynamicKey: 'payload.sendAt' }, null, '2026-03-02T10:05:00.000Z', undefined],
    ['dynamic without the payload. prefix', { type: 'dynamic', dynamicKey: 'sendAt' }, null, '2026-03-02T10:05:00.000Z', undefined],
  ])('%s waits at its step until the due time, showing its timing as the activity does', async (_name, controls, timezone, due, digest) => {
    const j = job('delay', controls);
    (j.subscriber as { timezone: string | null }).timezone = timezone;
    expect(await run(delay, j)).toEqual({
      status: 'delayed',
      rerunAt: new Date(due),
      output: { dueAt: due, startedAt: NOW.toISOString() },
      digest,
      details: [{ status: 'Pending', source: 'Internal', detail: `delayed until ${due}` }],
    });
  });

  it('completes at once for a past date, fails for no date or one past the longest delay', async () => {
    expect(await run(delay, job('delay', { type: 'dynamic', dynamicKey: 'old' }, { payload: { old: '2020-01-01' } } as Partial<RunnableJob>))).toMatchObject({
      status: 'completed',
      output: { durationMs: 0 },
      details: [{ status: 'Success', detail: 'delay: 2020-01-01T00:00:00.000Z has passed; continuing at once' }],
    });
    expect(await run(delay, job('delay', { type: 'dynamic', dynamicKey: 'nope' }))).toMatchObject({ status: 'failed' });
    expect(await run(delay, job('delay', { type: 'dynamic', dynamicKey: 'far' }, { payload: { far: '2030-01-01' } } as Partial<RunnableJob>))).toMatchObject({
      status: 'failed',
      details: [{ detail: expect.stringContaining('more than 365 days away') }],
    });
  });

  it('ends, on its second run, with a final status saying how late it ran and how long it held the workflow', async () => {
    const j = job('delay', { amount: 1, unit: 'minutes' }, { steps: { wait: { dueAt: '2026-03-02T09:59:57.500Z', startedAt: '2026-03-02T09:58:57.500Z' } } });
    expect(await run(delay, j)).toEqual({
      status: 'completed',
      output: { dueAt: '2026-03-02T09:59:57.500Z', startedAt: '2026-03-02T09:58:57.500Z', lateMs: 2500, durationMs: 62_500 },
      details: [{ status: 'Success', source: 'Internal', detail: 'delay ended: due at 2026-03-02T09:59:57.500Z, ran 2.5 s late' }],
    });
  });
});

describe('DigestStepHandler', () => {
  function digests(place: (e: DigestEntry) => DigestPlace) {
    const calls: DigestEntry[][] = [];
    const repository: DigestRepository = { enter: async (entries) => (calls.push(entries), entries.map(place)) };
    return { calls, handler: new DigestStepHandler(repository, clock) };
  }

  it('enters the jobs of one slice together, with the key value, window end and metadata', async () => {
    const { calls, handler } = digests(() => ({ role: 'member', digestId: 'd-1', leaderNotificationId: 'n-0' }));
    const controls = { amount: 5, unit: 'minutes', digestKey: 'postId', lookBackWindow: { amount: 1, unit: 'minutes' } };
    const results = await Promise.all([run(handler, job('digest', controls)), run(handler, job('digest', controls))]);
    expect(calls).toHaveLength(1);
    expect(calls[0][0]).toMatchObject({
      digestKey: 'p1',
      closesAt: new Date('2026-03-02T10:05:00.000Z'),
      backoffSince: new Date('2026-03-02T09:59:00.000Z'),
      metadata: { type: 'backoff', amount: 5, unit: 'minutes', digestKey: 'postId', backoff: true, backoffAmount: 1, backoffUnit: 'minutes' },
    });
    expect(results[0]).toEqual({
      status: 'merged',
      halt: true,
      digest: calls[0][0].metadata,
      details: [{ status: 'Success', source: 'Internal', detail: 'merged into digest d-1; notification n-0 continues with its events' }],
    });
  });

  it('keeps the leader waiting until the window ends, then continues with the events and their count', async () => {
    const closesAt = new Date('2026-03-02T10:00:00.000Z');
    const open = digests(() => ({ role: 'leader', digestId: 'd-2', closesAt, status: 'open' }));
    expect(await run(open.handler, job('digest', { type: 'timed', cron: '0 * * * *' }))).toMatchObject({
      status: 'delayed',
      rerunAt: closesAt,
      digest: { type: 'timed', timed: { cronExpression: '0 * * * *' } },
    });
    expect(open.calls[0][0].closesAt).toEqual(new Date('2026-03-02T11:00:00.000Z'));
    const events = [{ id: 'n-1', transactionId: 't', time: NOW.toISOString(), payload: { postId: 'p1' } }];
    const closed = digests(() => ({ role: 'leader', digestId: 'd-2', closesAt, status: 'closed', events }));
    expect(await run(closed.handler, job('digest', { amount: 1, unit: 'hours' }))).toEqual({
      status: 'completed',
      output: { events, eventCount: 1 },
      details: [{ status: 'Success', source: 'Internal', detail: 'digest d-2 closed with 1 event' }],
    });
  });
});

describe('ThrottleStepHandler', () => {
  it('lets the first threshold executions of a fixed window through and skips the rest of the others', async () => {
    const counted: ThrottleEntry[] = [];
    const repository = new InMemoryThrottleRepository();
    const admit = repository.admit.bind(repository);
    repository.admit = async (entries) => (counted.push(...entries), admit(entries));
    const handler = new ThrottleStepHandler(repository, clock);
    const controls = { amount: 1, unit: 'hours', threshold: 2, throttleKey: 'postId' };
    const results = await Promise.all([1, 2, 3].map(() => run(handler, job('throttle', controls))));
    expect(results.map((r) => [r.status, r.halt ?? false])).toEqual([['completed', false], ['completed', false], ['skipped', true]]);
    expect(counted[0]).toMatchObject({ throttleKey: 'p1', windowStart: new Date('2026-03-02T10:00:00.000Z'), windowEnd: new Date('2026-03-02T11:00:00.000Z'), workflowId: 'wf', subscriberId: 'sub-uuid' });
    expect(results[2].details[0].detail).toBe(
      'throttled: execution 3 in the 1 hours window from 2026-03-02T10:00:00.000Z is over the threshold of 2; the remaining steps were skipped',
    );
  });
});
