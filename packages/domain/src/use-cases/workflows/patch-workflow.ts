import { SEVERITIES } from '../../entities/channel';
import type { EvaluatedWorkflow, WorkflowChanges } from '../../entities/workflow';
import { DomainError, type FieldErrors } from '../../errors';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { evaluateWorkflow } from '../../rules/step-issues';
import { assertWorkflowsWritable, type ActiveChannels, type Environments } from './create-workflow';
import { assertExternalPatch } from '../bridge/code-defined';
import { validatePayloadSchema, validateTags } from './workflow-input';

/** PATCH: changes single attributes (active, name, tags...) and leaves the steps alone. */
export class PatchWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly integrations: ActiveChannels,
    private readonly environments?: Environments,
  ) {}

  async execute(environmentId: string, reference: string, changes: WorkflowChanges): Promise<EvaluatedWorkflow> {
    const errors: FieldErrors = {};
    if (changes.name !== undefined && changes.name.trim() === '') errors.name = { messages: ['must not be empty'], value: changes.name };
    if (changes.severity !== undefined && !SEVERITIES.includes(changes.severity)) {
      errors.severity = { messages: [`must be one of ${SEVERITIES.join(', ')}`], value: changes.severity };
    }
    const tags = validateTags(changes.tags, errors);
    validatePayloadSchema(changes.payloadSchema, errors);
    if (Object.keys(errors).length) throw DomainError.validation(errors);

    const existing = await this.workflows.find(environmentId, reference);
    if (!existing) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    // Switching a workflow on or off is an operator's lever everywhere, Production included.
    if (Object.entries(changes).some(([key, value]) => key !== 'active' && value !== undefined)) await assertWorkflowsWritable(this.environments, environmentId);
    if (existing.origin === 'external') assertExternalPatch(existing, changes);
    const updated = await this.workflows.update(environmentId, existing.id, { ...changes, name: changes.name?.trim(), tags });
    if (!updated) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', reference);
    return evaluateWorkflow(updated, await this.integrations.activeChannels(environmentId));
  }
}
