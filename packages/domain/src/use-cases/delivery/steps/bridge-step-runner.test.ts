import { describe, expect, it } from 'vitest';
import type { WorkflowStep } from '../../../entities/workflow';
import type { JsonObject } from '../../../entities/delivery';
import { InMemoryHttpClient, type ServedRequest } from '../../../testing/in-memory-http-client';
import { InMemoryJobRepository } from '../../../testing/in-memory-job-repository';
import { InMemoryStore } from '../../../testing/in-memory-store';
import { InMemorySubscriberRepository } from '../../../testing/in-memory-subscriber-repository';
import { InMemoryTenancyRepository } from '../../../testing/in-memory-tenancy-repository';
import { InMemoryWorkflowRepository } from '../../../testing/in-memory-workflow-repository';
import { draft } from '../../../testing/workflow-repository-contract';
import { BridgeClient } from '../../bridge/bridge-client';
import { BridgeTargets } from '../../bridge/bridge-targets';
import { hashApiKey } from '../../tenancy/api-keys';
import { stepVariables } from '../run-notifications';
import { BridgeStepRunner } from './bridge-step-runner';
import { DelayStepHandler } from './delay-step-handler';
import { InAppStepHandler } from './in-app-step-handler';
import type { StepHandler } from './step-handler';

const KEY = 'sk_bridge_runner';
type Answer = { outputs: JsonObject; providers?: JsonObject; options?: JsonObject };

/** A synced workflow of these steps, its bridge answering `answer` for each execute, and a clock the test moves. */
async function bridgeWorld(steps: Array<Pick<WorkflowStep, 'stepId' | 'type'>>, answer: (stepId: string, body: JsonObject) => Answer) {
  let now = new Date('2026-05-04T10:00:00.000Z');
  const clock = { now: () => now, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
  const store = new InMemoryStore();
  const tenancy = new InMemoryTenancyRepository();
  const { environments } = await tenancy.bootstrap({ organizationName: 'Org', environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }] });
  const env = environments[0].id;
  const http = new InMemoryHttpClient(true);
  const calls: Array<{ stepId: string; body: JsonObject }> = [];
  const origin = http.serve((request: ServedRequest) => {
    const stepId = new URL(request.path, 'http://bridge').searchParams.get('stepId') ?? '';
    const body = JSON.parse(request.body) as JsonObject;
    calls.push({ stepId, body });
    return { status: 200, headers: {}, body: JSON.stringify({ providers: {}, options: {}, ...answer(stepId, body) }) };
  });
  await tenancy.addApiKey(env, hashApiKey(KEY), 'sk_…', KEY);
  await tenancy.setBridge(env, { url: `${origin}/api/novu`, keyHash: hashApiKey(KEY) });
  const workflows = new InMemoryWorkflowRepository(store);
  const workflow = await workflows.create(env, draft('flow', { origin: 'external', steps: steps.map((s) => ({ ...s, name: s.stepId, controlValues: {}, skip: null })) }));
  await new InMemorySubscriberRepository(store).insert(env, { subscriberId: 'ada', email: 'ada@example.com' });
  const jobs = new InMemoryJobRepository(store, clock.now);
  const runner = new BridgeStepRunner(new BridgeClient(http), new BridgeTargets(tenancy), workflows, jobs, () => 0.5);
  const notificationId = jobs.notify({
    environmentId: env,
    workflowId: workflow.id,
    subscriberRowId: store.subscriber(env, 'ada')!.id,
    transactionId: 'tx',
    payload: { n: 1 },
    overrides: {},
    contextKeys: [],
  });
  /** Claims the notification's due step and runs it through the bridge with `inner`, recording the outcome. */
  const runNext = async (inner: StepHandler) => {
    const [job] = await jobs.claim([notificationId]);
    const result = await runner.run(job, stepVariables(job), inner);
    await jobs.record([{ job, ...result }]);
    return { job, result };
  };
  return { env, clock, calls, jobs, runner, runNext, notificationId };
}

describe('BridgeStepRunner', () => {
  it("replays an in-app step as the subscriber left it and a delay's duration as how long it held the workflow", async () => {
    const world = await bridgeWorld(
      [
        { stepId: 'bell', type: 'in_app' },
        { stepId: 'wait', type: 'delay' },
        { stepId: 'nudge', type: 'in_app' },
      ],
      (stepId) => ({ outputs: stepId === 'wait' ? { type: 'regular', amount: 2, unit: 'minutes' } : { body: `${stepId} body` } }),
    );
    const { job: bell } = await world.runNext(new InAppStepHandler('herald'));
    const delay = new DelayStepHandler(world.clock.now);
    expect((await world.runNext(delay)).result.status).toBe('delayed');
    world.clock.advance(30_000);
    world.jobs.readMessage(bell.jobId, world.clock.now());
    world.clock.advance(95_000);
    expect((await world.runNext(delay)).result.status).toBe('completed');
    expect((await world.runNext(new InAppStepHandler('herald'))).result.status).toBe('completed');

    const nudge = world.calls.find((c) => c.stepId === 'nudge')!;
    expect(nudge.body.state).toEqual([
      { stepId: 'bell', outputs: { seen: true, read: true, lastSeenDate: '2026-05-04T10:00:30.000Z', lastReadDate: '2026-05-04T10:00:30.000Z' }, state: { status: 'completed', error: null } },
      // Due after 2 minutes, run 5 s late: held for 125 s.
      { stepId: 'wait', outputs: { duration: 125_000 }, state: { status: 'completed', error: null } },
    ]);
    // The delay's second run used the answer it kept: the bridge ran each step once.
    expect(world.calls.map((c) => c.stepId)).toEqual(['bell', 'wait', 'nudge']);
  });

  it('replays an in-app step nobody has read as unseen and unread', async () => {
    const world = await bridgeWorld(
      [
        { stepId: 'bell', type: 'in_app' },
        { stepId: 'after', type: 'custom' },
      ],
      (stepId) => ({ outputs: stepId === 'bell' ? { body: 'hi' } : { done: true } }),
    );
    await world.runNext(new InAppStepHandler('herald'));
    const { result } = await world.runNext({ run: async () => ({ status: 'failed', details: [] }) } satisfies StepHandler);
    expect(result).toMatchObject({ status: 'completed', output: { done: true } });
    expect(world.calls[1].body.state).toEqual([
      { stepId: 'bell', outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null }, state: { status: 'completed', error: null } },
    ]);
  });
});
