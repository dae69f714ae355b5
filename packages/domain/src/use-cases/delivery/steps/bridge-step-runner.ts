import type { BridgeExecution, BridgeFailure } from '../../../entities/bridge';
import type { DetailSource, JsonObject } from '../../../entities/delivery';
import type { RetryPolicy } from '../../../entities/retry-policy';
import type { WorkflowStep } from '../../../entities/workflow';
import type { JobRepository, RunnableJob } from '../../../ports/job-repository';
import type { WorkflowRepository } from '../../../ports/workflow-repository';
import { bridgeState } from '../../../rules/bridge-state';
import { retryDelayMs } from '../../../rules/retry-delay';
import { SharedReads } from '../../../shared/shared-reads';
import type { BridgeClient } from '../../bridge/bridge-client';
import type { BridgeTargets } from '../../bridge/bridge-targets';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

/** Kept with an external step's job between its runs: the bridge's answer and the inner handler's own state. */
interface BridgeDeliveryState {
  bridge?: BridgeExecution;
  /** Failed calls to the bridge so far (retried like a provider). */
  bridgeFailures?: number;
  inner?: JsonObject | null;
}

const SOURCE: Record<string, DetailSource> = {
  ExecutionEventPayloadInvalidError: 'Payload',
  WorkflowPayloadInvalidError: 'Payload',
  SignatureMismatchError: 'Credentials',
  SignatureNotFoundError: 'Credentials',
  SignatureInvalidError: 'Credentials',
  SignatureExpiredError: 'Credentials',
  SigningKeyNotFoundError: 'Credentials',
};

/**
 * Runs a step of a workflow synced from a bridge: asks the bridge for the step's outputs (signed
 * with the key the bridge was synced with), then lets Herald's own handler of the step type act on
 * them, so channels deliver through Herald's providers and digest, delay and throttle keep Herald's
 * scheduling. A custom step's outputs are its result (`steps.<stepId>`). The bridge's answer is kept
 * with the job: a provider retry or an open digest's next run never asks the bridge again; only a
 * crash between the bridge's answer and the job's record does (at least once, at most once recorded).
 */
export class BridgeStepRunner {
  private readonly workflowSteps = new SharedReads<WorkflowStep[] | null>(2_000);

  constructor(
    private readonly bridge: BridgeClient,
    private readonly targets: BridgeTargets,
    private readonly workflows: Pick<WorkflowRepository, 'find'>,
    private readonly jobs: Pick<JobRepository, 'inAppStates'>,
    private readonly random: () => number = Math.random,
  ) {}

  async run(job: RunnableJob, variables: StepVariables, inner: StepHandler): Promise<StepResult> {
    const kept = (job.deliveryState ?? {}) as BridgeDeliveryState;
    const resolved = await this.targets.resolve(job.environmentId);
    if ('problem' in resolved) return { ...failed(resolved.problem), halt: true };
    let execution = kept.bridge;
    if (!execution) {
      const steps = await this.workflowSteps.get(job.workflow.id, () => this.workflows.find(job.environmentId, job.workflow.id).then((w) => w?.steps ?? null));
      const position = steps?.findIndex((s) => s.id === job.step.id) ?? -1;
      const earlier = position > 0 ? steps!.slice(0, position) : [];
      // Read as the subscriber left them now: a later step's code may act on whether they read it.
      const inApp = earlier.some((s) => s.type === 'in_app') ? await this.jobs.inAppStates(job.environmentId, job.notificationId) : {};
      const answer = await this.bridge.execute(resolved.target, 'execute', job.workflow.identifier, job.step.stepId, {
        payload: job.payload,
        subscriber: variables.subscriber,
        controls: job.step.controlValues,
        state: bridgeState(earlier, job.steps, inApp),
        context: variables.context,
      });
      if (!answer.ok) return this.failure(answer.failure, kept, job, resolved.policy);
      execution = answer.value;
    }
    if (execution.options.skip) return { status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail: 'skipped: the bridge skipped the step' }] };
    const state = (inner: JsonObject | null | undefined): JsonObject => ({ bridge: execution, inner: inner ?? null }) as unknown as JsonObject;
    if (job.step.type === 'custom' || job.step.type === 'http_request') {
      const output = execution.outputs;
      return { status: 'completed', output, details: [{ status: 'Success', source: 'Internal', detail: `the bridge ran the step (${Object.keys(output).length} result keys)`, raw: JSON.stringify(output).slice(0, 4000) }] };
    }
    const step = { ...job.step, controlValues: execution.outputs, rendered: true, providers: execution.providers };
    const result = await inner.run({ ...job, step, deliveryState: kept.inner ?? null }, variables);
    return { ...result, deliveryState: state(result.deliveryState) };
  }

  private failure(failure: BridgeFailure, kept: BridgeDeliveryState, job: RunnableJob, policy: RetryPolicy): StepResult {
    const failures = (kept.bridgeFailures ?? 0) + 1;
    const what = `bridge error${failure.status ? ` ${failure.status}` : ''}${failure.code ? ` ${failure.code}` : ''}: ${failure.message}`;
    const source = (failure.code && SOURCE[failure.code]) || 'Internal';
    if (failure.retryable && failures < policy.maxAttempts) {
      const delay = retryDelayMs(policy, failures, this.random());
      return {
        status: 'delayed',
        rerunAt: new Date(Date.now() + delay),
        deliveryState: { ...kept, bridgeFailures: failures } as unknown as JsonObject,
        details: [{ status: 'Failed', source, detail: `${what} (attempt ${failures}, retrying in ${Math.round(delay / 1000)} s)`, raw: failure.raw }],
      };
    }
    const why = failure.retryable ? ` (gave up after ${failures} attempts)` : '';
    return { status: 'failed', halt: true, details: [{ status: 'Failed', source, detail: `${what}${why}`, raw: failure.raw }] };
  }
}

/** The engine's handlers, each running external workflows' steps through the bridge first. */
export function withBridge<H extends { [K in keyof H]: StepHandler }>(handlers: H, runner: BridgeStepRunner): H {
  const wrapped = Object.entries(handlers as Record<string, StepHandler>).map(([type, inner]) => [
    type,
    { run: (job: RunnableJob, variables: StepVariables) => (job.workflow.origin === 'external' ? runner.run(job, variables, inner) : inner.run(job, variables)) },
  ]);
  return Object.fromEntries(wrapped) as H;
}
