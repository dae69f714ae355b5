import { describe, expect, it } from 'vitest';
import type { JobOutcome, JobRepository, RunnableJob } from '../../ports/job-repository';
import { DeliveryObservers } from '../../ports/delivery-observer';
import { RUN_PARALLEL, RUN_SLICE, RunNotifications, type StepHandlers } from './run-notifications';

/** An in-memory job store: one due in-app job per notification, counting claims running at once. */
function jobStore() {
  const due = new Set<string>();
  const stats = { inFlight: 0, maxInFlight: 0, recorded: 0 };
  const repository: JobRepository = {
    async claim(ids) {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const claimed = ids.filter((id) => due.delete(id));
      return claimed.map(
        (id) =>
          ({
            jobId: id,
            notificationId: id,
            leased: false,
            attempts: 1,
            step: { type: 'custom', skip: null, filters: [], controlValues: {} },
            subscriber: { subscriberId: id, data: {} },
            workflow: { critical: false, preferences: {} },
            payload: {},
            contextKeys: [],
            steps: {},
            preferences: { global: null, perWorkflow: null },
          }) as unknown as RunnableJob,
      );
    },
    async record(outcomes: JobOutcome[]) {
      stats.recorded += outcomes.length;
      stats.inFlight--;
      return [];
    },
    heartbeat: async () => undefined,
    requeueStalled: async () => ({ events: 0, notifications: 0 }),
  };
  return { due, stats, repository };
}

const handler = { run: async () => ({ status: 'completed' as const, details: [] }) };
const handlers = Object.fromEntries(['in_app', 'email', 'sms', 'chat', 'push', 'custom', 'delay', 'http_request', 'digest', 'throttle'].map((t) => [t, handler])) as unknown as StepHandlers;

describe('RunNotifications', () => {
  it('runs every slice of concurrent batches, never more than RUN_PARALLEL at once across them', async () => {
    const { due, stats, repository } = jobStore();
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const big = ids('fanout', RUN_SLICE * 6);
    const small = ids('trigger', 7);
    [...big, ...small].forEach((id) => due.add(id));
    const run = new RunNotifications(repository, handlers);
    const [a, b] = await Promise.all([run.execute(big), run.execute(small)]);
    expect(a.jobsRun + b.jobsRun).toBe(big.length + small.length);
    expect(stats.recorded).toBe(big.length + small.length);
    expect(stats.maxInFlight).toBe(RUN_PARALLEL);
  });

  it('tells every observer what each slice recorded, after it is recorded, and an observer that throws changes nothing', async () => {
    const { due, stats, repository } = jobStore();
    ['a', 'b', 'c'].forEach((id) => due.add(id));
    const heard: Array<{ jobs: string[]; recordedBefore: number }> = [];
    const observers = new DeliveryObservers([
      { recorded: () => { throw new Error('broken observer'); } },
      { recorded: (outcomes) => heard.push({ jobs: outcomes.map((o) => o.job.jobId), recordedBefore: stats.recorded }) },
    ]);
    const result = await new RunNotifications(repository, handlers, observers).execute(['a', 'b', 'c']);
    expect(result.jobsRun).toBe(3);
    expect(heard).toEqual([{ jobs: ['a', 'b', 'c'], recordedBefore: 3 }]);
  });
});
