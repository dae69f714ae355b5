import type { ExecutionDetailDraft, JsonObject, StepResult } from '../../entities/delivery';
import type { RunnableJob } from '../../ports/job-repository';
import { lateness } from '../../rules/durations';
import { isWithinHours, localTimeLabel, nextOpening, openHoursOf } from '../../rules/delivery-schedule';

/**
 * The channels a subscriber's delivery schedule holds back, as the interface's Inbox says: "Notifications
 * to external channels will pause outside the schedule. In-app and critical notifications are always
 * delivered."
 */
export const SCHEDULED_CHANNELS: readonly string[] = ['email', 'sms', 'chat', 'push'];

/** What a channel step keeps in its output about a wait for the schedule (`steps.<stepId>.schedule`). */
interface ScheduleWait {
  waitedUntil: string;
  /** Set on the run that went out after the wait, so a provider retry later does not report it again. */
  ranAt?: string;
}

export type ScheduleCheck =
  /** Closed: the step waits at its own place until the schedule opens. */
  | { hold: StepResult }
  /** Open (or not held at all): what to add to the step's own result, if anything. */
  | { go: { detail: ExecutionDetailDraft; output: JsonObject } | null };

const GO: ScheduleCheck = Object.freeze({ go: null });

/**
 * Whether a channel step may go out now under the subscriber's schedule. A step of a critical
 * workflow and an in-app step always may. A closed schedule returns the step as `delayed` until it
 * opens (durable like every delay: the job waits in PostgreSQL with its run_at). After such a wait the
 * opening counts from the time waited for, not the clock: a job is claimed only when PostgreSQL says
 * it is due, and a worker whose clock runs a few milliseconds behind must not wait a second time.
 */
export function checkSchedule(job: RunnableJob, clock: () => Date): ScheduleCheck {
  // The hot path: a subscriber without a schedule (and no wait of this step to report) costs a few
  // property reads; no clock, no allocation. The schedule came with the claim's subscriber row.
  if (!job.schedule && !job.steps[job.step.stepId]) return GO;
  if (job.workflow.critical || !SCHEDULED_CHANNELS.includes(job.step.type)) return GO;
  const wait = (job.steps[job.step.stepId] as { schedule?: ScheduleWait } | undefined)?.schedule;
  const pending = wait && !wait.ranAt ? wait : undefined;
  const hours = openHoursOf(job.schedule);
  if (!hours && !pending) return GO;
  const now = clock();
  const waitedUntil = pending ? new Date(pending.waitedUntil) : null;
  const at = waitedUntil && waitedUntil > now ? waitedUntil : now;
  if (!hours || isWithinHours(hours, at, job.subscriber.timezone)) {
    if (!pending || !waitedUntil) return { go: null };
    return {
      go: {
        detail: { status: 'Success', source: 'Internal', detail: `the subscriber's delivery schedule opened at ${pending.waitedUntil}; sending ${lateness(waitedUntil, now)} after it` },
        output: { schedule: { waitedUntil: pending.waitedUntil, ranAt: now.toISOString() } },
      },
    };
  }
  const until = nextOpening(hours, at, job.subscriber.timezone);
  return {
    hold: {
      status: 'delayed',
      rerunAt: until,
      output: { schedule: { waitedUntil: until.toISOString() } },
      details: [
        {
          status: 'Pending',
          source: 'Internal',
          detail: `outside the subscriber's delivery schedule: waiting until ${until.toISOString()} (${localTimeLabel(until, job.subscriber.timezone)})`,
        },
      ],
    },
  };
}

/**
 * A delay's or digest's due time moved to the next opening of the subscriber's schedule (the step
 * option `extendToSchedule`), or null when it stays: the schedule is open then, holds nothing back,
 * or the workflow is critical.
 */
export function extendToSchedule(job: RunnableJob, due: Date): Date | null {
  if (job.workflow.critical) return null;
  const hours = openHoursOf(job.schedule);
  if (!hours || isWithinHours(hours, due, job.subscriber.timezone)) return null;
  return nextOpening(hours, due, job.subscriber.timezone);
}

/** How an extension reads in a step's execution detail. */
export function extensionNote(job: RunnableJob, from: Date, to: Date): string {
  return `extended from ${from.toISOString()} to the subscriber's delivery schedule (${localTimeLabel(to, job.subscriber.timezone)})`;
}
