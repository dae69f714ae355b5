import type { EvaluatedWorkflow } from '../../entities/workflow';
import type { IntegrationRepository } from '../../ports/integration-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import { toWorkflowDraft, type WorkflowInput } from './workflow-input';

/** What the workflow use cases need of integrations: which channels can deliver. */
export type ActiveChannels = Pick<IntegrationRepository, 'activeChannels'>;

export class CreateWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
  ) {}

  /** Throws VALIDATION_FAILED naming the field, or WORKFLOW_ALREADY_EXISTS for a taken workflowId. */
  async execute(environmentId: string, input: WorkflowInput): Promise<EvaluatedWorkflow> {
    const draft = toWorkflowDraft(input);
    const workflow = await this.workflows.create(environmentId, draft);
    return evaluateWorkflow(workflow, await this.integrations.activeChannels(environmentId));
  }
}
