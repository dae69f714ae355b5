import type { RunnableJob } from '../../../ports/job-repository';
import { addDuration, beyondMaxDelay, lateness, MAX_DELAY_DAYS, type DurationUnit } from '../../../rules/durations';
import { nextTick, type TimedSchedule } from '../../../rules/schedule';
import { extendToSchedule, extensionNote } from '../schedule-gate';
import { valueAt } from './payload-path';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

interface DelayControls {
  type?: 'regular' | 'timed' | 'dynamic';
  amount?: number;
  unit?: DurationUnit;
  cron?: string;
  timed?: TimedSchedule;
  dynamicKey?: string;
  /** Move the due time to the next opening of the subscriber's delivery schedule when it falls outside it. */
  extendToSchedule?: boolean;
}

/** The delay as the activity shows it (the original keeps a delay's amount and unit in the job's digest metadata). */
function timing(c: DelayControls) {
  if (c.type === 'timed') return { type: 'timed', timed: { ...c.timed, ...(c.cron ? { cronExpression: c.cron } : {}) } };
  return c.type === 'dynamic' || c.amount === undefined ? undefined : { type: 'regular', amount: c.amount, unit: c.unit };
}

/**
 * Holds the rest of the workflow: for amount+unit (regular), until the next tick of a cron or of
 * the `timed` fields in the subscriber's timezone (timed), or until a date in the payload (dynamic).
 * The job waits at its own step (status delayed) and, when due, completes saying how late it ran;
 * its output keeps the due time (`dueAt`) so that second run knows it is the end of the wait, and
 * the start (`startedAt`), so the completed output says how long the delay held the workflow
 * (`durationMs`: what a bridge's later steps read as the delay's `duration`).
 * With `extendToSchedule`, a due time outside the subscriber's delivery schedule moves to its next
 * opening (counted in the job's scheduleExtensionsCount), and so does the end of the wait when the
 * schedule changed meanwhile.
 */
export class DelayStepHandler implements StepHandler {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const now = this.now();
    const c = job.step.controlValues as DelayControls;
    const own = job.steps[job.step.stepId] as { dueAt?: string; startedAt?: string } | undefined;
    if (own?.dueAt) {
      const dueAt = new Date(own.dueAt);
      const moved = c.extendToSchedule ? extendToSchedule(job, dueAt > now ? dueAt : now) : null;
      if (moved) return this.wait(job, own.startedAt ?? now.toISOString(), moved, [`delayed until ${moved.toISOString()}, ${extensionNote(job, dueAt, moved)}`], 1);
      const lateMs = Math.max(0, now.getTime() - dueAt.getTime());
      // A wait begun before the start was kept: its due time is the best bound there is.
      const durationMs = own.startedAt ? Math.max(0, now.getTime() - new Date(own.startedAt).getTime()) : lateMs;
      return {
        status: 'completed',
        output: { dueAt: own.dueAt, ...(own.startedAt ? { startedAt: own.startedAt } : {}), lateMs, durationMs },
        details: [{ status: 'Success', source: 'Internal', detail: `delay ended: due at ${own.dueAt}, ran ${lateness(dueAt, now)} late` }],
      };
    }
    const until = this.until(job, variables, now);
    if (until instanceof Error) return failed(`delay: ${until.message}`, 'Payload');
    if (beyondMaxDelay(now, until)) return failed(`delay: ${until.toISOString()} is more than ${MAX_DELAY_DAYS} days away, the longest delay Herald holds`, 'Payload');
    const moved = c.extendToSchedule ? extendToSchedule(job, until > now ? until : now) : null;
    if (moved) return this.wait(job, now.toISOString(), moved, [`delayed until ${moved.toISOString()}, ${extensionNote(job, until, moved)}`], 1);
    if (until <= now) {
      return { status: 'completed', output: { durationMs: 0 }, details: [{ status: 'Success', source: 'Internal', detail: `delay: ${until.toISOString()} has passed; continuing at once` }] };
    }
    return this.wait(job, now.toISOString(), until, [`delayed until ${until.toISOString()}`], 0);
  }

  private wait(job: RunnableJob, startedAt: string, until: Date, details: string[], scheduleExtensions: number): StepResult {
    return {
      status: 'delayed',
      rerunAt: until,
      output: { dueAt: until.toISOString(), startedAt },
      digest: timing(job.step.controlValues as DelayControls),
      details: details.map((detail) => ({ status: 'Pending', source: 'Internal', detail })),
      ...(scheduleExtensions ? { scheduleExtensions } : {}),
    };
  }

  private until(job: RunnableJob, variables: StepVariables, now: Date): Date | Error {
    const c = job.step.controlValues as DelayControls;
    if (c.type === 'dynamic' || (c.dynamicKey && c.amount === undefined && !c.cron && !c.timed)) {
      if (!c.dynamicKey) return new Error('dynamicKey is required for a dynamic delay');
      const value = valueAt(variables, c.dynamicKey);
      const at = new Date(typeof value === 'string' || typeof value === 'number' ? value : NaN);
      return Number.isNaN(at.getTime()) ? new Error(`${c.dynamicKey} is not a date in the payload`) : at;
    }
    if (c.type === 'timed') {
      if (!c.cron && !c.timed) return new Error('a cron or timed schedule is required for a timed delay');
      return nextTick({ cron: c.cron, timed: c.timed }, now, job.subscriber.timezone) ?? new Error('the schedule has no next tick');
    }
    if (typeof c.amount === 'number' && c.unit) return addDuration(now, c.amount, c.unit);
    return new Error('amount and unit are required');
  }
}
