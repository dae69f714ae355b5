import type { Environment } from '../../entities/tenancy';
import type { EvaluatedWorkflow, Workflow, WorkflowDraft } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import { workflowDiff, type WorkflowChange } from '../../rules/workflow-diff';
import type { ActiveChannels } from '../workflows/create-workflow';
import { isPromotionOnly } from './promotion-only';

export interface PromotionInput {
  sourceEnvironmentId: string;
  /** Trigger identifier or internal id, in the source environment. */
  workflowId: string;
  /** Default: the organization's environment that takes workflows by promotion (Production). */
  targetEnvironmentId?: string;
}

export interface PromotionPlan {
  source: Workflow;
  target: Environment;
  action: 'create' | 'update' | 'unchanged';
  changes: WorkflowChange[];
}

/** A workflow as another environment stores it: the same definition, steps and control values. */
function copyOf(source: Workflow): WorkflowDraft {
  const { id: _i, environmentId: _e, lastTriggeredAt: _t, lastPublishedAt: _p, createdAt: _c, updatedAt: _u, steps, ...attributes } = source;
  return { ...attributes, steps: steps.map(({ id: _id, ...step }) => step) };
}

/**
 * Moves a workflow from Development to Production (the only way Production's workflows change):
 * `plan` shows the diff, `execute` writes the workflow there as it is in the source, creating or
 * replacing it (steps keep their internal ids by stepId). A synced workflow needs a bridge
 * registered in the target, which runs it there with that environment's key.
 */
export class PromoteWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly tenancy: Pick<TenancyRepository, 'findEnvironment' | 'listEnvironments'>,
    private readonly integrations: ActiveChannels,
  ) {}

  async plan(input: PromotionInput): Promise<PromotionPlan> {
    const sourceEnvironment = await this.tenancy.findEnvironment(input.sourceEnvironmentId);
    if (!sourceEnvironment) throw DomainError.notFound('ENVIRONMENT_NOT_FOUND', 'Environment', input.sourceEnvironmentId);
    const target = await this.target(sourceEnvironment, input.targetEnvironmentId);
    const source = await this.workflows.find(sourceEnvironment.id, input.workflowId);
    if (!source) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', input.workflowId);
    const current = await this.workflows.find(target.id, source.workflowId);
    const changes = workflowDiff(current, copyOf(source));
    return { source, target, action: !current ? 'create' : changes.length ? 'update' : 'unchanged', changes };
  }

  async execute(input: PromotionInput): Promise<PromotionPlan & { workflow: EvaluatedWorkflow }> {
    const plan = await this.plan(input);
    const { source, target } = plan;
    if (source.origin === 'external' && !target.bridge) {
      throw new DomainError('BAD_REQUEST', `Workflow '${source.workflowId}' runs on a bridge, and ${target.name} has none: run \`novu sync\` with ${target.name}'s secret key and its bridge URL first (in ${target.name} that registers the bridge without changing workflows).`);
    }
    const current = await this.workflows.find(target.id, source.workflowId);
    const written = current ? await this.workflows.replace(target.id, current.id, copyOf(source)) : await this.workflows.create(target.id, copyOf(source));
    if (!written) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', source.workflowId);
    return { ...plan, workflow: evaluateWorkflow(written, await this.integrations.activeChannels(target.id)) };
  }

  private async target(source: Environment, targetId: string | undefined): Promise<Environment> {
    const all = (await this.tenancy.listEnvironments()).filter((e) => e.organizationId === source.organizationId);
    const target = targetId ? all.find((e) => e.id === targetId || e.slug === targetId) : all.find((e) => isPromotionOnly(e));
    if (!target) throw DomainError.field('targetEnvironmentId', `no environment '${targetId ?? 'production'}' in this organization`, targetId);
    if (target.id === source.id) throw DomainError.field('targetEnvironmentId', 'must be another environment than the workflow\'s own', targetId);
    if (isPromotionOnly(source)) throw new DomainError('FORBIDDEN', `Workflows are promoted from Development; ${source.name} is the end of the line`);
    return target;
  }
}
