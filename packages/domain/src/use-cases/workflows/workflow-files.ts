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

  /**
   * Creates or replaces each workflow by its identifier, all or none: every file is checked, then
   * all are written in one transaction (CONFLICT, nothing written, when one names a synced workflow).
   */
  async import(environmentId: string, files: Array<{ name: string; content: WorkflowInput }>): Promise<{ created: string[]; updated: string[] }> {
    const environment = await this.tenancy.findEnvironment(environmentId);
    if (!environment) throw DomainError.notFound('ENVIRONMENT_NOT_FOUND', 'Environment', environmentId);
    assertWritable(environment);
    const named = new Map<string, string>();
    const drafts = files.map(({ name, content }) => {
      try {
        const draft = toWorkflowDraft(content);
        const other = named.get(draft.workflowId);
        if (other) throw DomainError.field('workflowId', `is also the identifier in ${other}`, draft.workflowId);
        named.set(draft.workflowId, name);
        return draft;
      } catch (error) {
        if (error instanceof DomainError) throw new DomainError(error.code, `${name}: ${error.message}`, error.fields);
        throw error;
      }
    });
    const { workflows, created } = await this.workflows.writeAll(environmentId, 'novu-cloud', drafts).catch((error: unknown) => {
      const file = named.get(String(error instanceof DomainError ? error.fields?.workflowId?.value : ''));
      if (error instanceof DomainError) throw new DomainError(error.code, `${file ? `${file}: ` : ''}${error.message}; nothing was imported`, error.fields);
      throw error;
    });
    return { created, updated: workflows.map((w) => w.workflowId).filter((id) => !created.includes(id)) };
  }
}
