import { describe, expect, it } from 'vitest';
import type { JobOutcome } from '../../ports/job-repository';
import { DeliveryObservers } from '../../ports/delivery-observer';
import { InMemoryJobRepository } from '../../testing/in-memory-job-repository';
import { InMemoryStore } from '../../testing/in-memory-store';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { InMemoryWorkflowRepository } from '../../testing/in-memory-workflow-repository';
import { draft } from '../../testing/workflow-repository-contract';
import { RUN_PARALLEL, RUN_SLICE, RunNotifications, type StepHandlers } from './run-notifications';

/**
 * The shared job double with a one-step (custom) workflow; `due(n)` notifies n recipients. Claims
 * are slowed and counted, to see how many run at once.
 */
async function jobStore() {
  const store = new InMemoryStore();
  const workflow = await new InMemoryWorkflowRepository(store).create('env', draft('flow', { steps: [{ stepId: 'run', name: 'run', type: 'custom', controlValues: {}, skip: null }] }));
  const subscriber = (await new InMemorySubscriberRepository(store).insert('env', { subscriberId: 'ada' }))!;
  const repository = new InMemoryJobRepository(store);
  const due = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      repository.notify({ environmentId: 'env', workflowId: workflow.id, subscriberRowId: subscriber.id, transactionId: `t${i}`, payload: {}, overrides: {}, contextKeys: [] }),
    );
  const stats = { inFlight: 0, maxInFlight: 0, recorded: 0 };
  const [claim, record] = [repository.claim.bind(repository), repository.record.bind(repository)];
  repository.claim = async (ids) => {
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return claim(ids);
  };
  repository.record = async (outcomes: JobOutcome[]) => {
    stats.recorded += outcomes.length;
    stats.inFlight--;
    return record(outcomes);
  };
  return { due, stats, repository };
}

const handler = { run: async () => ({ status: 'completed' as const, details: [] }) };
const handlers = Object.fromEntries(['in_app', 'email', 'sms', 'chat', 'push', 'custom', 'delay', 'http_request', 'digest', 'throttle'].map((t) => [t, handler])) as unknown as StepHandlers;

describe('RunNotifications', () => {
  it('runs every slice of concurrent batches, never more than RUN_PARALLEL at once across them', async () => {
    const { due, stats, repository } = await jobStore();
    const big = due(RUN_SLICE * 6);
    const small = due(7);
    const run = new RunNotifications(repository, handlers);
    const [a, b] = await Promise.all([run.execute(big), run.execute(small)]);
    expect(a.jobsRun + b.jobsRun).toBe(big.length + small.length);
    expect(stats.recorded).toBe(big.length + small.length);
    expect(stats.maxInFlight).toBe(RUN_PARALLEL);
  });

  it('tells every observer what each slice recorded, after it is recorded, and an observer that throws changes nothing', async () => {
    const { due, stats, repository } = await jobStore();
    const [a, b, c] = due(3);
    const heard: Array<{ jobs: string[]; recordedBefore: number }> = [];
    const observers = new DeliveryObservers([
      { recorded: () => { throw new Error('broken observer'); } },
      { recorded: (outcomes) => heard.push({ jobs: outcomes.map((o) => o.job.jobId), recordedBefore: stats.recorded }) },
    ]);
    const result = await new RunNotifications(repository, handlers, observers).execute([a, b, c]);
    expect(result.jobsRun).toBe(3);
    const jobOf = (id: string) => repository.jobs.find((j) => j.notificationId === id)!.id;
    expect(heard).toEqual([{ jobs: [a, b, c].map(jobOf), recordedBefore: 3 }]);
  });
});
