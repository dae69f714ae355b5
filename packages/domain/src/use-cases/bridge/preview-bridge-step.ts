import type { Workflow, WorkflowStep } from '../../entities/workflow';
import { isObject, type JsonObject } from '../../rules/control-reader';
import { renderedStepContent, type RenderVariables, type StepRenderResult } from '../../rules/render-step';
import type { BridgeClient } from './bridge-client';
import type { BridgeTargets } from './bridge-targets';

/**
 * The preview of a synced workflow's step: the bridge renders it (`?action=preview`, where the
 * framework fills the payload from the workflow's schema with mock values and mocks earlier steps).
 * A bridge that cannot answer gives a preview error with its own message, never a thrown error.
 */
export class PreviewBridgeStep {
  constructor(
    private readonly client: BridgeClient,
    private readonly targets: BridgeTargets,
  ) {}

  async execute(environmentId: string, workflow: Workflow, step: WorkflowStep, controls: JsonObject, variables: RenderVariables): Promise<StepRenderResult> {
    const resolved = await this.targets.resolve(environmentId);
    const error = (message: string, hint: string): StepRenderResult => ({ type: step.type, error: { title: 'The bridge could not preview the step', message, hint } });
    if ('problem' in resolved) return error(resolved.problem, 'Sync the bridge into this environment with `novu sync`.');
    const answer = await this.client.execute(resolved.target, 'preview', workflow.workflowId, step.stepId, {
      payload: isObject(variables.payload) ? variables.payload : {},
      subscriber: isObject(variables.subscriber) ? variables.subscriber : {},
      controls,
      state: [],
      context: isObject(variables.context) ? variables.context : {},
    });
    if (!answer.ok) {
      const { status, code, message } = answer.failure;
      return error(`${status ?? 'no answer'}${code ? ` ${code}` : ''}: ${message}`, 'Check the bridge: it must be running, reachable from Herald and hold this environment\'s secret key.');
    }
    return renderedStepContent(step.type, answer.value.outputs);
  }
}
