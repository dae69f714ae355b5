import type { EvaluatedWorkflow, WorkflowStatus } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { OffsetPage, WorkflowFilter, WorkflowOrder, WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import type { ActiveChannels } from './create-workflow';

/** One workflow, by trigger identifier or internal id, with its issues. */
export class GetWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
  ) {}

  async execute(environmentId: string, reference: string): Promise<EvaluatedWorkflow> {
    const workflow = await this.workflows.find(environmentId, reference);
    if (!workflow) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    return evaluateWorkflow(workflow, await this.integrations.activeChannels(environmentId));
  }
}

export interface ListWorkflowsInput extends WorkflowFilter, WorkflowOrder, OffsetPage {
  status?: WorkflowStatus[];
}

export interface WorkflowList {
  workflows: EvaluatedWorkflow[];
  totalCount: number;
}

export class ListWorkflows {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
  ) {}

  async execute(environmentId: string, { status, offset, limit, orderBy, orderDirection, ...filter }: ListWorkflowsInput): Promise<WorkflowList> {
    const order = { orderBy, orderDirection };
    const channels = await this.integrations.activeChannels(environmentId);
    if (!status?.length) {
      const page = await this.workflows.list(environmentId, filter, order, { offset, limit });
      return { workflows: page.workflows.map((w) => evaluateWorkflow(w, channels)), totalCount: page.totalCount };
    }
    // Status depends on control issues only the domain can compute (Liquid analysis) and on the
    // environment's integrations, so it is filtered here over the query's matches, then paged.
    const { workflows } = await this.workflows.list(environmentId, filter, order);
    const wanted = new Set(status);
    const matching = workflows.map((w) => evaluateWorkflow(w, channels)).filter((w) => wanted.has(w.status));
    return { workflows: matching.slice(offset, offset + limit), totalCount: matching.length };
  }
}
