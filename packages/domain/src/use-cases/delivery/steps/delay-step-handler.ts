import type { RunnableJob } from '../../../ports/job-repository';
import { addDuration, type DurationUnit } from '../../../rules/durations';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

function lookup(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), source);
}

/** Holds the rest of the workflow: for amount+unit, or until a date taken from the payload. */
export class DelayStepHandler implements StepHandler {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const controls = job.step.controlValues as { amount?: number; unit?: DurationUnit; delayPath?: string; type?: string };
    let until: Date;
    if (controls.delayPath) {
      const value = lookup(variables, controls.delayPath.startsWith('payload.') ? controls.delayPath : `payload.${controls.delayPath}`);
      until = new Date(typeof value === 'string' || typeof value === 'number' ? value : NaN);
      if (Number.isNaN(until.getTime())) return failed(`delay: ${controls.delayPath} is not a date in the payload`, 'Payload');
    } else if (typeof controls.amount === 'number' && controls.unit) {
      until = addDuration(this.now(), controls.amount, controls.unit);
    } else {
      return failed('delay: amount and unit (or delayPath) are required');
    }
    return {
      status: 'completed',
      nextRunAt: until,
      details: [{ status: 'Pending', source: 'Internal', detail: `delayed until ${until.toISOString()}` }],
    };
  }
}
