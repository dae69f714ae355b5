import type { DigestEntry, DigestPlace, DigestRepository } from '../../../ports/digest-repository';
import type { RunnableJob } from '../../../ports/job-repository';
import { addDuration, lateness, type DurationUnit } from '../../../rules/durations';
import { nextTick, type TimedSchedule } from '../../../rules/schedule';
import { coalesce } from '../../../shared/coalesce';

import { extendToSchedule, extensionNote } from '../schedule-gate';
import { keyValue } from './payload-path';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

interface DigestControls {
  type?: 'regular' | 'timed';
  amount?: number;
  unit?: DurationUnit;
  digestKey?: string;
  /** A regular digest with a look-back window is a backoff digest (how validation stores one). */
  lookBackWindow?: { amount?: number; unit?: DurationUnit };
  cron?: string;
  timed?: TimedSchedule;
  /** Close the digest at the next opening of the subscriber's delivery schedule when it would close outside it. */
  extendToSchedule?: boolean;
}

/** The spec's DigestMetadata for this step, without its events (the repository adds them at close). */
function metadata(c: DigestControls, backoff: boolean) {
  return {
    type: backoff ? 'backoff' : (c.type ?? 'regular'),
    ...(c.amount !== undefined ? { amount: c.amount, unit: c.unit } : {}),
    ...(c.digestKey ? { digestKey: c.digestKey } : {}),
    ...(backoff ? { backoff: true, backoffAmount: c.lookBackWindow?.amount, backoffUnit: c.lookBackWindow?.unit } : {}),
    ...(c.type === 'timed' ? { timed: { ...c.timed, ...(c.cron ? { cronExpression: c.cron } : {}) } } : {}),
  };
}

/**
 * Collects the events of one subscriber, step and digestKey value into one digest; the job that
 * opened it (the leader) waits at this step until the digest closes and then runs the rest of the
 * workflow once, with `steps.<stepId>.events` and `eventCount`. The other jobs end here, merged.
 * Jobs of one slice are entered together (one round of statements per slice, not per job).
 */
export class DigestStepHandler implements StepHandler {
  private readonly enter: (entry: DigestEntry) => Promise<DigestPlace>;

  constructor(
    digests: DigestRepository,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.enter = coalesce((entries) => digests.enter(entries));
  }

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const c = job.step.controlValues as DigestControls;
    const now = this.now();
    let closesAt: Date | null;
    if (c.type === 'timed') {
      if (!c.cron && !c.timed) return failed('digest: a cron or timed schedule is required for a timed digest');
      closesAt = nextTick({ cron: c.cron, timed: c.timed }, now, job.subscriber.timezone);
    } else if (typeof c.amount === 'number' && c.unit) {
      closesAt = addDuration(now, c.amount, c.unit);
    } else return failed('digest: amount and unit are required');
    // Extended when the window opens: the leader's due time is the window's end, members join it as it is.
    const due = closesAt ?? now;
    const extended = c.extendToSchedule ? extendToSchedule(job, due) : null;
    if (extended) closesAt = extended;
    const window = c.type !== 'timed' ? c.lookBackWindow : undefined;
    const backoff = Boolean(window?.amount && window.unit);
    const shown = metadata(c, backoff);
    const place = await this.enter({
      jobId: job.jobId,
      notificationId: job.notificationId,
      environmentId: job.environmentId,
      subscriberId: job.subscriber.id,
      workflowStepId: job.step.id,
      digestKey: keyValue(variables, c.digestKey),
      closesAt: closesAt ?? now,
      backoffSince: backoff ? addDuration(now, -window!.amount!, window!.unit!) : null,
      metadata: shown,
    });
    if (place.role === 'member') {
      return {
        status: 'merged',
        halt: true,
        digest: shown,
        details: [{ status: 'Success', source: 'Internal', detail: `merged into digest ${place.digestId}; notification ${place.leaderNotificationId} continues with its events` }],
      };
    }
    if (place.status === 'open') {
      // Counted once, by the run that opened the window with the extended end.
      const opened = extended !== null && place.closesAt.getTime() === extended.getTime() && job.attempts === 1;
      const note = opened ? `, ${extensionNote(job, due, extended)}` : '';
      return {
        status: 'delayed',
        rerunAt: place.closesAt,
        digest: shown,
        details: [{ status: 'Pending', source: 'Internal', detail: `digest ${place.digestId} open: collecting events until ${place.closesAt.toISOString()}${note}` }],
        ...(opened ? { scheduleExtensions: 1 } : {}),
      };
    }
    const { events } = place;
    const late = place.closesAt < now ? `, ${lateness(place.closesAt, now)} after it was due` : '';
    return {
      status: 'completed',
      output: { events, eventCount: events.length },
      details: [{ status: 'Success', source: 'Internal', detail: `digest ${place.digestId} closed with ${events.length} event${events.length === 1 ? '' : 's'}${late}` }],
    };
  }
}
