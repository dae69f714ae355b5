import { assertNever, isChannelType } from '../../entities/channel';
import type { StepSubscriber } from '../../entities/subscriber';
import type { DeliveryObserver } from '../../ports/delivery-observer';
import type { JobOutcome, JobRepository, RunnableJob } from '../../ports/job-repository';
import { evaluateStepFilters } from '../../rules/evaluate-step-filters';
import { evaluateJsonLogic } from '../../rules/json-logic';
import { resolveChannel } from '../../rules/resolve-preferences';
import { checkSchedule } from './schedule-gate';
import type { StepHandler, StepResult, StepVariables } from './steps/step-handler';
import { contextFromKeys } from '../../shared/context-keys';

export const RUN_SLICE = 500;
export const RUN_PARALLEL = 4;
/** Well under the repository's 30 s lease. */
export const HEARTBEAT_MS = 10_000;

export interface StepHandlers {
  in_app: StepHandler;
  email: StepHandler;
  sms: StepHandler;
  chat: StepHandler;
  push: StepHandler;
  custom: StepHandler;
  delay: StepHandler;
  http_request: StepHandler;
  digest: StepHandler;
  throttle: StepHandler;
}

/** What templates and conditions see of a subscriber (`subscriber.*`). */
export function subscriberVariables(subscriber: StepSubscriber): StepVariables['subscriber'] {
  return {
    subscriberId: subscriber.subscriberId,
    firstName: subscriber.firstName,
    lastName: subscriber.lastName,
    email: subscriber.email,
    phone: subscriber.phone,
    avatar: subscriber.avatar,
    locale: subscriber.locale,
    timezone: subscriber.timezone,
    data: subscriber.data ?? {},
  };
}

export function stepVariables(job: RunnableJob): StepVariables {
  return {
    payload: job.payload,
    subscriber: subscriberVariables(job.subscriber),
    steps: job.steps,
    context: contextFromKeys(job.contextKeys),
  };
}

/**
 * Runs workflow steps for a batch of notifications, in order: the step's skip condition and legacy
 * filters, then the subscriber's preferences and delivery schedule for a channel step, then the
 * step's handler. Steps due now run one after another in this call; later ones are scheduled by the
 * repository.
 */
export class RunNotifications {
  constructor(
    private readonly jobs: JobRepository,
    private readonly handlers: StepHandlers,
    private readonly observer: DeliveryObserver = { recorded: () => undefined },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(notificationIds: string[]): Promise<{ jobsRun: number }> {
    // Bounded slices keep each claim and each recording transaction small.
    const slices: string[][] = [];
    for (let i = 0; i < notificationIds.length; i += RUN_SLICE) slices.push(notificationIds.slice(i, i + RUN_SLICE));
    const runs = await Promise.all(slices.map((slice) => this.inSlot(() => this.runSlice(slice))));
    return { jobsRun: runs.reduce((a, b) => a + b, 0) };
  }

  /** The same engine with slots of its own: due delayed work runs there, never behind queued batches. */
  lane(): RunNotifications {
    return new RunNotifications(this.jobs, this.handlers, this.observer, this.now);
  }

  /**
   * Runs steps whose results the caller writes itself, in its own statement (a topic fan-out's
   * first in-app step, written with the notifications): the same rules and handlers as `execute`.
   * Tell `recorded` what was written.
   */
  runUnrecorded(jobs: RunnableJob[]): Promise<JobOutcome[]> {
    return Promise.all(jobs.map((job) => this.runOne(job)));
  }

  /** Tells the observers about outcomes written outside `execute` (see `runUnrecorded`). */
  recorded(outcomes: JobOutcome[]): void {
    if (outcomes.length) this.observer.recorded(outcomes);
  }

  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * At most RUN_PARALLEL slices run at once in this process, whichever queue batch they came from:
   * the database works on one while the next renders, and a worker that fetched a large batch (a
   * topic fan-out's) does not leave the others idle while it works through it alone.
   */
  private async inSlot<T>(run: () => Promise<T>): Promise<T> {
    if (this.running < RUN_PARALLEL) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // a finishing slice hands its slot over
    try {
      return await run();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private async runSlice(notificationIds: string[]): Promise<number> {
    let pending = notificationIds;
    let jobsRun = 0;
    while (pending.length) {
      const claimed = await this.jobs.claim(pending);
      if (!claimed.length) break;
      // Slow steps (providers, HTTP) keep their lease alive; it only lapses for a dead worker.
      const leased = claimed.filter((j) => j.leased).map((j) => j.jobId);
      const heartbeat = setInterval(() => void (leased.length && this.jobs.heartbeat(leased).catch(() => undefined)), HEARTBEAT_MS);
      // One clock reading for the claimed batch, taken before any handler's synchronous work: each job
      // would otherwise see the schedule open only after the jobs ahead of it rendered their messages.
      const claimedAt = this.now();
      const clock = () => claimedAt;
      const outcomes = await Promise.all(claimed.map((job) => this.runOne(job, clock))).finally(() => clearInterval(heartbeat));
      jobsRun += outcomes.length;
      pending = await this.jobs.record(outcomes);
      this.observer.recorded(outcomes);
    }
    return jobsRun;
  }

  /** `clock`: the time the schedule gate decides at (in `execute`, when the job's batch was claimed). */
  async runOne(job: RunnableJob, clock: () => Date = this.now): Promise<JobOutcome> {
    const variables = stepVariables(job);
    const { step } = job;
    const skip = evaluateJsonLogic(step.skip, variables);
    if (step.skip && skip.matched) return this.skipped(job, 'skipped: skip condition is true');
    if (skip.error) return this.skipped(job, `skipped: ${skip.error}`);
    const filters = evaluateStepFilters(step.filters, { subscriber: variables.subscriber, payload: job.payload });
    if (!filters.passed) return this.skipped(job, 'skipped: condition false');
    let afterWait: { detail: StepResult['details'][number]; output: Record<string, unknown> } | null = null;
    if (isChannelType(step.type)) {
      const { enabled, source } = resolveChannel(
        { workflow: { critical: job.workflow.critical, defaults: job.workflow.preferences }, global: job.preferences.global, perWorkflow: job.preferences.perWorkflow },
        step.type,
      );
      if (!enabled) {
        const by = source === 'workflow' ? 'the workflow defaults' : source === 'global' ? 'subscriber (global)' : 'subscriber';
        return this.skipped(job, `skipped: preference ${step.type} disabled by ${by}`);
      }
      const schedule = checkSchedule(job, clock);
      if ('hold' in schedule) return { job, ...schedule.hold };
      afterWait = schedule.go;
    }
    let result: StepResult;
    try {
      result = await this.handler(step.type).run(job, variables);
    } catch (error) {
      result = { status: 'failed', details: [{ status: 'Failed', source: 'Internal', detail: `step error: ${(error as Error).message}` }] };
    }
    if (afterWait) result = { ...result, details: [afterWait.detail, ...result.details], output: { ...afterWait.output, ...result.output } };
    return { job, ...result };
  }

  private skipped(job: RunnableJob, detail: string): JobOutcome {
    return { job, status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail }] };
  }

  private handler(type: RunnableJob['step']['type']): StepHandler {
    switch (type) {
      case 'in_app':
      case 'email':
      case 'sms':
      case 'chat':
      case 'push':
      case 'custom':
      case 'delay':
      case 'http_request':
      case 'digest':
      case 'throttle':
        return this.handlers[type];
      default:
        return assertNever(type, 'step type');
    }
  }
}
