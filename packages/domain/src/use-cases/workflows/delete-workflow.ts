import { DomainError } from '../../errors';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { assertWorkflowsWritable, type Environments } from './create-workflow';

/** Deletes a workflow by trigger identifier or internal id; refused where workflows are promoted, not edited. */
export class DeleteWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly environments?: Environments,
  ) {}

  async execute(environmentId: string, reference: string): Promise<void> {
    await assertWorkflowsWritable(this.environments, environmentId);
    const workflow = await this.workflows.find(environmentId, reference);
    if (!workflow || !(await this.workflows.delete(environmentId, workflow.id))) {
      throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    }
  }
}
