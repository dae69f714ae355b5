import { token } from '../shared/token';
import type { DeliveryStep, DeliveryWorkflow, InAppMessageState, JsonObject, StepResult } from '../entities/delivery';
import type { SubscriberPreferenceRecord } from '../entities/preferences';
import type { DeliverySchedule } from '../entities/delivery-schedule';
import type { StepSubscriber } from '../entities/subscriber';

export const JobRepository = token<JobRepository>('JobRepository');

/** A claimed job with everything its step needs to run. */
export interface RunnableJob {
  jobId: string;
  notificationId: string;
  environmentId: string;
  transactionId: string;
  /** This run's attempt number. */
  attempts: number;
  /** Whether this run holds the job's lease (steps with side effects: LEASED_STEP_TYPES). */
  leased: boolean;
  step: DeliveryStep;
  workflow: Omit<DeliveryWorkflow, 'steps' | 'payloadSchema'>;
  subscriber: StepSubscriber;
  /**
   * The subscriber's delivery schedule, read with the subscriber's row (no query of its own); absent
   * or null: none. Steps run inline (in-app, which no schedule holds back) carry none.
   */
  schedule?: DeliverySchedule | null;
  payload: JsonObject;
  overrides: JsonObject;
  contextKeys: string[];
  /** What the previous run of this step kept (StepResult.deliveryState), or null. */
  deliveryState: JsonObject | null;
  /** The trigger's W3C traceparent, when it was traced (observability only; opaque here). */
  traceContext?: string | null;
  /** Outputs of this notification's finished steps, by stepId. */
  steps: Record<string, unknown>;
  preferences: { global: SubscriberPreferenceRecord | null; perWorkflow: SubscriberPreferenceRecord | null };
}

/** A step's result, for the job it ran. */
export interface JobOutcome extends StepResult {
  job: RunnableJob;
}

export interface JobRepository {
  /**
   * Claims the next due job of each notification (queued or delayed, run_at passed); concurrent
   * claims never return the same job. A step with side effects (LEASED_STEP_TYPES) is leased by
   * moving it to running, and claimed again only when a crashed worker left it past the lease. Other
   * steps are not written: the attempt that records first keeps the job. Notifications with nothing
   * due are left out.
   */
  claim(notificationIds: string[]): Promise<RunnableJob[]>;
  /**
   * Writes every outcome in ONE transaction (job statuses, execution details, messages, outputs),
   * queues each notification's next job, and schedules work for the ones due later. An outcome for a
   * job no longer held by this attempt (its lease lapsed and it was claimed again, or another
   * attempt recorded first) is dropped.
   * Returns the notifications whose next job is due now.
   */
  record(outcomes: JobOutcome[]): Promise<string[]>;
  /** The in-app messages the notification's steps stored, as they are now, by stepId; a step without one is absent. */
  inAppStates(environmentId: string, notificationId: string): Promise<Record<string, InAppMessageState>>;
  /** Extends the lease of jobs this worker is still running, so a slow step is not claimed twice. */
  heartbeat(jobIds: string[]): Promise<void>;
  /**
   * Queues work again for what a crashed process left behind: events still fanning out and due
   * jobs (queued, delayed past run_at, or running past the lease) untouched for `idleMs`.
   * Safe to run anywhere at any time: claims and fan-out chunks are idempotent.
   */
  requeueStalled(idleMs: number): Promise<{ events: number; notifications: number }>;
}
