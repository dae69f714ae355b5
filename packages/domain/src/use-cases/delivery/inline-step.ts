import type { DeliveryStep, DeliveryWorkflow, JsonObject } from '../../entities/delivery';
import type { StepSubscriber } from '../../entities/subscriber';
import type { JobOutcome, RunnableJob } from '../../ports/job-repository';
import type { RunNotifications } from './run-notifications';

/**
 * The step written together with its notification instead of queued as a job: the workflow's first
 * active step when it is in-app. It has no side effect outside the database, so running it again
 * after a crash (the write was lost) is harmless. A trigger runs it for its direct recipients and a
 * topic fan-out for each chunk; the step then gets no job row and no queue message, its record is
 * kept on the notification, and the activity log shows it like any other job.
 */
export function inlineStep(workflow: DeliveryWorkflow): DeliveryStep | null {
  // A synced workflow's first step asks its bridge: never within the trigger's transaction.
  if (workflow.origin === 'external') return null;
  const first = workflow.steps.find((s) => s.active);
  return first?.type === 'in_app' ? first : null;
}

/** A recipient whose inline step runs before its notification is written, with the ids both will have. */
export interface InlineRecipient {
  notificationId: string;
  inlineJobId: string;
  /**
   * The subscriber as stored once the trigger commits (what templates and conditions see: with the
   * trigger's subscriber object applied), and its preferences for the workflow.
   */
  recipient: StepSubscriber;
  subscriberPreferences: RunnableJob['preferences'];
}

/**
 * Runs the inline step for recipients the repository read, of the trigger as the repository writes
 * it (`source`: with its trace context); the repository writes the outcomes.
 */
export type RunInline = (recipients: InlineRecipient[], source: InlineSource) => Promise<JobOutcome[]>;

/**
 * How the step engine runs a workflow's inline step, for the trigger and the fan-out alike;
 * undefined when the workflow has none or there is no engine (every step is then queued).
 */
export function inlineRunner(steps: RunNotifications | undefined, workflow: DeliveryWorkflow): RunInline | undefined {
  const step = steps ? inlineStep(workflow) : null;
  if (!steps || !step) return undefined;
  return (recipients, source) => {
    // One workflow snapshot for the whole chunk: its jobs only read it.
    const workflow = jobWorkflow(source.workflow);
    return steps.runUnrecorded(recipients.map((r) => inlineJob(source, r, step, workflow)));
  };
}

/** What of a trigger (an accepted one, or a fan-out's event) an inline step's job carries. */
export interface InlineSource {
  environmentId: string;
  transactionId: string;
  workflow: DeliveryWorkflow;
  payload: JsonObject;
  overrides: JsonObject;
  contextKeys: string[];
  traceContext?: string | null;
}

/** The workflow as a job carries it: without its steps and payload schema. */
function jobWorkflow(workflow: DeliveryWorkflow): RunnableJob['workflow'] {
  const { steps: _steps, payloadSchema: _schema, ...rest } = workflow;
  return rest;
}

/** The job an inline step runs as: the notification as it will be written. */
export function inlineJob(source: InlineSource, r: InlineRecipient, step: DeliveryStep, workflow = jobWorkflow(source.workflow)): RunnableJob {
  return {
    jobId: r.inlineJobId,
    notificationId: r.notificationId,
    environmentId: source.environmentId,
    transactionId: source.transactionId,
    attempts: 1,
    leased: false,
    step,
    workflow,
    subscriber: r.recipient,
    payload: source.payload,
    overrides: source.overrides,
    contextKeys: source.contextKeys,
    deliveryState: null,
    traceContext: source.traceContext,
    steps: {},
    preferences: r.subscriberPreferences,
  };
}
