import type { JsonObject } from '../../rules/control-reader';
import { DomainError, type FieldErrors } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { signRequestBody } from '../../rules/http-signature';
import { buildPreviewExample, collectVariables, mergeDeep } from '../../rules/preview-example';
import { renderStepContent, type RenderVariables, type StepRenderResult } from '../../rules/render-step';
import { validateStepControls } from '../../rules/step-controls';
import type { Clock } from '../../shared/clock';
import type { PreviewBridgeStep } from '../bridge/preview-bridge-step';
import { systemClock } from '../../shared/clock';

export interface PreviewStepInput {
  environmentId: string;
  /** Trigger identifier or internal id. */
  workflowId: string;
  /** stepId or the step's internal id. */
  stepId: string;
  /** Draft control values to preview instead of the stored ones. */
  controlValues?: JsonObject;
  /** Variables given by the caller; merged over the generated example. */
  previewPayload?: RenderVariables;
}

export interface StepPreview {
  /** The variables the preview rendered with: an example for every variable the step reads, overridden by previewPayload. */
  previewPayloadExample: RenderVariables;
  schema: JsonObject | null;
  result: StepRenderResult;
  /** For http_request steps: the signature header value the request would carry. */
  signature?: string;
}

export class PreviewStep {
  constructor(
    private readonly workflows: Pick<WorkflowRepository, 'find'>,
    private readonly environments: Pick<TenancyRepository, 'findEnvironment'>,
    private readonly clock: Clock = systemClock,
    /** Previews synced workflows' steps on their bridge; without it they render like API steps. */
    private readonly bridge?: PreviewBridgeStep,
  ) {}

  async execute(input: PreviewStepInput): Promise<StepPreview> {
    const workflow = await this.workflows.find(input.environmentId, input.workflowId);
    if (!workflow) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', input.workflowId);
    const step = workflow.steps.find((s) => s.stepId === input.stepId || s.id === input.stepId);
    if (!step) throw DomainError.notFound('NOT_FOUND', `Step of workflow '${workflow.workflowId}'`, input.stepId);

    if (workflow.origin === 'external' && this.bridge) {
      const variables = (input.previewPayload ?? {}) as RenderVariables;
      const result = await this.bridge.execute(input.environmentId, workflow, step, input.controlValues ?? step.controlValues, variables);
      return { previewPayloadExample: variables, schema: workflow.payloadSchema, result };
    }
    let controlValues = step.controlValues;
    if (input.controlValues !== undefined) {
      const errors: FieldErrors = {};
      controlValues = validateStepControls(step.type, input.controlValues, 'controlValues', errors).controlValues;
      if (Object.keys(errors).length) throw DomainError.validation(errors);
    }

    const example = buildPreviewExample(collectVariables(controlValues), workflow.payloadSchema);
    const variables = mergeDeep(example as JsonObject, input.previewPayload as JsonObject | undefined) as RenderVariables;
    const result = renderStepContent(step.type, controlValues, variables);
    const preview: StepPreview = { previewPayloadExample: variables, schema: workflow.payloadSchema, result };
    if (result.type === 'http_request' && 'preview' in result) {
      const environment = await this.environments.findEnvironment(input.environmentId);
      if (!environment) throw DomainError.notFound('ENVIRONMENT_NOT_FOUND', 'Environment', input.environmentId);
      preview.signature = signRequestBody(environment.signingSecret, result.preview.body, this.clock.now().getTime());
    }
    return preview;
  }
}
