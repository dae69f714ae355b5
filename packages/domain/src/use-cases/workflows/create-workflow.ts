import type { EvaluatedWorkflow } from '../../entities/workflow';
import type { IntegrationRepository } from '../../ports/integration-repository';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { assertWritable } from '../bridge/promotion-only';
import { evaluateWorkflow } from '../../rules/step-issues';
import { toWorkflowDraft, type WorkflowInput } from './workflow-input';

/** What the workflow use cases need of integrations: which channels can deliver. */
export type ActiveChannels = Pick<IntegrationRepository, 'activeChannels'>;

/** Where a workflow write is refused: environments that take workflows by promotion only (Production). */
export type Environments = Pick<TenancyRepository, 'findEnvironment'>;

/** Throws FORBIDDEN when the environment takes workflows by promotion only; without `environments` (tests), nothing is checked. */
export async function assertWorkflowsWritable(environments: Environments | undefined, environmentId: string): Promise<void> {
  const environment = environments && (await environments.findEnvironment(environmentId));
  if (environment) assertWritable(environment);
}

export class CreateWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
    private readonly environments?: Environments,
  ) {}

  /** Throws VALIDATION_FAILED naming the field, or WORKFLOW_ALREADY_EXISTS for a taken workflowId. Written through the API: origin novu-cloud. */
  async execute(environmentId: string, input: WorkflowInput): Promise<EvaluatedWorkflow> {
    await assertWorkflowsWritable(this.environments, environmentId);
    const draft = { ...toWorkflowDraft(input), origin: 'novu-cloud' as const };
    const workflow = await this.workflows.create(environmentId, draft);
    return evaluateWorkflow(workflow, await this.integrations.activeChannels(environmentId));
  }
}
