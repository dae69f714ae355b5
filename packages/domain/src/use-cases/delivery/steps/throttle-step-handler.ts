import type { RunnableJob } from '../../../ports/job-repository';
import type { ThrottleEntry, ThrottleRepository } from '../../../ports/throttle-repository';
import { addDuration, type DurationUnit } from '../../../rules/durations';
import { coalesce } from '../../../shared/coalesce';
import { keyValue, valueAt } from './payload-path';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

interface ThrottleControls {
  type?: 'fixed' | 'dynamic';
  amount?: number;
  unit?: DurationUnit;
  threshold?: number;
  throttleKey?: string;
  /** dynamic: a payload path holding { amount, unit } for the window. */
  dynamicKey?: string;
}

/**
 * At most `threshold` executions per fixed window of `amount` `unit` (windows aligned to the epoch:
 * 1 minute = each clock minute) per subscriber, workflow and throttleKey value. The executions past
 * the threshold end here and skip the rest of their workflow.
 */
export class ThrottleStepHandler implements StepHandler {
  private readonly admit: (entry: ThrottleEntry) => Promise<number>;

  constructor(
    throttles: ThrottleRepository,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.admit = coalesce((entries) => throttles.admit(entries));
  }

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const c = job.step.controlValues as ThrottleControls;
    const window = c.type === 'dynamic' && c.dynamicKey ? (valueAt(variables, c.dynamicKey) as ThrottleControls | undefined) : c;
    if (typeof window?.amount !== 'number' || !window.unit) {
      return failed(c.type === 'dynamic' ? `throttle: ${c.dynamicKey} must hold { amount, unit } in the payload` : 'throttle: amount and unit are required');
    }
    const now = this.now();
    const length = addDuration(new Date(0), window.amount, window.unit).getTime();
    if (!(length > 0)) return failed('throttle: the window must be longer than zero');
    const windowStart = new Date(Math.floor(now.getTime() / length) * length);
    const threshold = c.threshold ?? 1;
    const place = await this.admit({
      jobId: job.jobId,
      environmentId: job.environmentId,
      workflowId: job.workflow.id,
      subscriberId: job.subscriber.id,
      throttleKey: keyValue(variables, c.throttleKey),
      windowStart,
      windowEnd: new Date(windowStart.getTime() + length),
    });
    const span = `the ${window.amount} ${window.unit} window from ${windowStart.toISOString()}`;
    if (place <= threshold) {
      return { status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: `throttle: execution ${place} of at most ${threshold} in ${span}` }] };
    }
    return {
      status: 'skipped',
      halt: true,
      details: [{ status: 'Success', source: 'Internal', detail: `throttled: execution ${place} in ${span} is over the threshold of ${threshold}; the remaining steps were skipped` }],
    };
  }
}
