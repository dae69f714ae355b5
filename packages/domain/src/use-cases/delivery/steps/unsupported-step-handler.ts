import type { RunnableJob } from '../../../ports/job-repository';
import { failed, type StepHandler, type StepResult } from './step-handler';

/**
 * Step types this version stores and validates but does not execute yet (digest, throttle): the job
 * fails with a reason a person can read instead of pretending to have run.
 */
export class UnsupportedStepHandler implements StepHandler {
  async run(job: RunnableJob): Promise<StepResult> {
    return { ...failed(`${job.step.type} steps are not executed by this version of Herald yet; the remaining steps were canceled`), halt: true };
  }
}
