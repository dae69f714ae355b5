import type { EvaluatedWorkflow } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import { assertWorkflowsWritable, type ActiveChannels, type Environments } from './create-workflow';
import { externalDraft } from '../bridge/code-defined';
import { toWorkflowDraft, type WorkflowInput } from './workflow-input';

/** PUT: the workflow as written replaces the stored one; fields the body leaves out keep their value. */
export class UpdateWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
    private readonly environments?: Environments,
  ) {}

  /** A synced workflow keeps its structure from code (see externalDraft); API workflows stay novu-cloud. */
  async execute(environmentId: string, reference: string, input: WorkflowInput): Promise<EvaluatedWorkflow> {
    await assertWorkflowsWritable(this.environments, environmentId);
    const existing = await this.workflows.find(environmentId, reference);
    if (!existing) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    const draft = existing.origin === 'external' ? externalDraft(existing, input) : { ...toWorkflowDraft(input, existing), origin: existing.origin };
    const updated = await this.workflows.replace(environmentId, existing.id, draft);
    if (!updated) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    return evaluateWorkflow(updated, await this.integrations.activeChannels(environmentId));
  }
}
