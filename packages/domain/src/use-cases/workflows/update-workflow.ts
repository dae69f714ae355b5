import type { EvaluatedWorkflow } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import type { ActiveChannels } from './create-workflow';
import { toWorkflowDraft, type WorkflowInput } from './workflow-input';

/** PUT: the workflow as written replaces the stored one; fields the body leaves out keep their value. */
export class UpdateWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
  ) {}

  async execute(environmentId: string, reference: string, input: WorkflowInput): Promise<EvaluatedWorkflow> {
    const existing = await this.workflows.find(environmentId, reference);
    if (!existing) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    const draft = toWorkflowDraft(input, existing);
    const updated = await this.workflows.replace(environmentId, existing.id, draft);
    if (!updated) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    return evaluateWorkflow(updated, await this.integrations.activeChannels(environmentId));
  }
}
