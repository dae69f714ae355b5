import type { Workflow } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { assertWritable } from '../bridge/promotion-only';
import { toWorkflowDraft, type WorkflowInput } from './workflow-input';

/** One workflow as a file holds it: what POST /v2/workflows takes, in a stable order for review in git. */
export function workflowFile(w: Workflow): WorkflowInput {
  return {
    workflowId: w.workflowId,
    name: w.name,
    description: w.description,
    tags: w.tags,
    active: w.active,
    critical: w.critical,
    severity: w.severity,
    payloadSchema: w.payloadSchema,
    preferences: w.preferences,
    data: w.data,
    isTranslationEnabled: w.isTranslationEnabled,
    steps: w.steps.map((s) => ({ stepId: s.stepId, name: s.name, type: s.type, controlValues: s.skip === null ? s.controlValues : { ...s.controlValues, skip: s.skip } })),
  };
}

/**
 * `pnpm herald workflows export|import`: an environment's API-defined workflows (origin
 * novu-cloud) to and from plain JSON, so a team keeps them in git. Synced workflows live in code
 * and are left out; Production takes workflows by promotion only, so import refuses it.
 */
export class WorkflowFiles {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly tenancy: Pick<TenancyRepository, 'findEnvironment'>,
  ) {}

  async export(environmentId: string): Promise<WorkflowInput[]> {
    const { workflows } = await this.workflows.list(environmentId, {}, { orderBy: 'createdAt', orderDirection: 'ASC' });
    return workflows.filter((w) => w.origin !== 'external').map(workflowFile);
  }

  /** Creates or replaces each workflow by its identifier; every file is checked before any is written. */
  async import(environmentId: string, files: Array<{ name: string; content: WorkflowInput }>): Promise<{ created: string[]; updated: string[] }> {
    const environment = await this.tenancy.findEnvironment(environmentId);
    if (!environment) throw DomainError.notFound('ENVIRONMENT_NOT_FOUND', 'Environment', environmentId);
    assertWritable(environment);
    const drafts = files.map(({ name, content }) => {
      try {
        return { ...toWorkflowDraft(content), origin: 'novu-cloud' as const };
      } catch (error) {
        if (error instanceof DomainError) throw new DomainError(error.code, `${name}: ${error.message}`, error.fields);
        throw error;
      }
    });
    const created: string[] = [];
    const updated: string[] = [];
    for (const draft of drafts) {
      const existing = await this.workflows.find(environmentId, draft.workflowId);
      if (existing?.origin === 'external') throw new DomainError('CONFLICT', `Workflow '${draft.workflowId}' is synced from a bridge: its definition lives in code`);
      if (existing) {
        await this.workflows.replace(environmentId, existing.id, draft);
        updated.push(draft.workflowId);
      } else {
        await this.workflows.create(environmentId, draft);
        created.push(draft.workflowId);
      }
    }
    return { created, updated };
  }
}
