import type { JsonObject } from '../../../entities/delivery';
import type { RunnableJob } from '../../../ports/job-repository';
import type { StepHandler, StepResult } from './step-handler';

/** A custom step's output is its control values; later steps read it as `steps.<stepId>`. */
export class CustomStepHandler implements StepHandler {
  async run(job: RunnableJob): Promise<StepResult> {
    const output = (job.step.controlValues.output as JsonObject | undefined) ?? job.step.controlValues;
    return {
      status: 'completed',
      output,
      details: [{ status: 'Success', source: 'Internal', detail: `custom step output recorded (${Object.keys(output).length} keys)`, raw: JSON.stringify(output).slice(0, 4000) }],
    };
  }
}
