import type { ExecutionDetailDraft, JsonObject, StepResult } from '../../../entities/delivery';
import type { RunnableJob } from '../../../ports/job-repository';

export type { StepResult };

/** The variables templates and conditions see. */
export interface StepVariables {
  payload: JsonObject;
  subscriber: JsonObject;
  steps: Record<string, unknown>;
  context: Record<string, string>;
}

/** One per step type, each with the narrow dependencies its type needs. */
export interface StepHandler {
  run(job: RunnableJob, variables: StepVariables): Promise<StepResult>;
}

export const failed = (detail: string, source: ExecutionDetailDraft['source'] = 'Internal'): StepResult => ({
  status: 'failed',
  details: [{ status: 'Failed', source, detail }],
});
