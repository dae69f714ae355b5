import { SEVERITIES, STEP_TYPES, type Severity, type WorkflowStepType } from '../../entities/channel';
import type { WorkflowPreferenceDefaults } from '../../entities/preferences';
import { identifierProblem, slugify, type Workflow, type WorkflowDraft, type WorkflowOrigin } from '../../entities/workflow';
import { DomainError, type FieldErrors } from '../../errors';
import { isObject, type JsonObject } from '../../rules/control-reader';
import { validateStepControls } from '../../rules/step-controls';

export const MAX_STEPS = 50;
export const MAX_TAGS = 16;
const MAX_TAG_LENGTH = 64;
const MAX_NAME_LENGTH = 256;

/** A workflow as a caller writes it; steps are untrusted JSON, checked here one by one. */
export interface WorkflowInput {
  name?: string;
  /** The trigger identifier; derived from the name when absent or empty. */
  workflowId?: string;
  description?: string | null;
  tags?: string[];
  active?: boolean;
  critical?: boolean;
  severity?: Severity;
  origin?: WorkflowOrigin;
  payloadSchema?: JsonObject | null;
  preferences?: WorkflowPreferenceDefaults | null;
  data?: JsonObject | null;
  isTranslationEnabled?: boolean;
  steps?: unknown[];
}

const WORKFLOW_STEP_TYPES = STEP_TYPES.filter((t): t is WorkflowStepType => t !== 'trigger');

export function validateTags(tags: string[] | undefined, errors: FieldErrors): string[] | undefined {
  if (tags === undefined) return undefined;
  const unique = [...new Set(tags.map((t) => t.trim()))];
  if (unique.length > MAX_TAGS) errors.tags = { messages: [`at most ${MAX_TAGS} tags`], value: tags };
  else if (unique.some((t) => t === '' || t.length > MAX_TAG_LENGTH)) errors.tags = { messages: [`tags must be 1-${MAX_TAG_LENGTH} characters`], value: tags };
  return unique;
}

export function validatePayloadSchema(schema: unknown, errors: FieldErrors): JsonObject | null | undefined {
  if (schema === undefined || schema === null) return schema;
  if (!isObject(schema)) errors.payloadSchema = { messages: ['must be a JSON schema object'], value: schema };
  else if (schema.type !== undefined && schema.type !== 'object') errors['payloadSchema.type'] = { messages: ["must be 'object': a payload is an object"], value: schema.type };
  return schema as JsonObject;
}

function validateSteps(raw: unknown[], errors: FieldErrors): WorkflowDraft['steps'] {
  if (raw.length > MAX_STEPS) errors.steps = { messages: [`at most ${MAX_STEPS} steps`], value: raw.length };
  const taken = new Set<string>();
  const explicit = new Set(raw.map((s) => (isObject(s) && typeof s.stepId === 'string' && s.stepId ? s.stepId : null)).filter(Boolean));
  return raw.map((item, i) => {
    const at = `steps[${i}]`;
    const step = isObject(item) ? item : {};
    if (!isObject(item)) errors[at] = { messages: ['must be an object'], value: item };
    const type = step.type as WorkflowStepType;
    if (!WORKFLOW_STEP_TYPES.includes(type)) errors[`${at}.type`] = { messages: [`must be one of ${WORKFLOW_STEP_TYPES.join(', ')}`], value: step.type };
    const name = typeof step.name === 'string' && step.name.trim() ? step.name.trim() : typeof step.stepId === 'string' ? step.stepId : '';
    if (!name) errors[`${at}.name`] = { messages: ['is required'], value: step.name };
    let stepId = typeof step.stepId === 'string' && step.stepId ? step.stepId : '';
    if (stepId) {
      const problem = identifierProblem(stepId);
      if (problem) errors[`${at}.stepId`] = { messages: [problem], value: stepId };
      else if (taken.has(stepId)) errors[`${at}.stepId`] = { messages: ['must be unique within the workflow'], value: stepId };
    } else {
      // Derived ids step around ids given explicitly anywhere in the list, and around each other.
      const base = slugify(name || String(step.type ?? 'step'), 'step');
      stepId = base;
      for (let n = 2; taken.has(stepId) || explicit.has(stepId); n++) stepId = `${base}-${n}`;
    }
    taken.add(stepId);
    const valid = WORKFLOW_STEP_TYPES.includes(type);
    const { controlValues, skip } = valid ? validateStepControls(type, step.controlValues, `${at}.controlValues`, errors) : { controlValues: {}, skip: null };
    return { stepId, name: name || stepId, type, controlValues, skip };
  });
}

/**
 * Checks and normalises a workflow as written. Fields the input leaves out keep the value of
 * `existing` (a PUT from a client that does not know them must not reset them), or their default.
 */
export function toWorkflowDraft(input: WorkflowInput, existing?: Workflow): WorkflowDraft {
  const errors: FieldErrors = {};
  const name = (input.name ?? existing?.name ?? '').trim();
  if (!name) errors.name = { messages: ['is required'], value: input.name };
  else if (name.length > MAX_NAME_LENGTH) errors.name = { messages: [`must be at most ${MAX_NAME_LENGTH} characters`], value: input.name };
  const workflowId = input.workflowId?.trim() || existing?.workflowId || slugify(name);
  const problem = identifierProblem(workflowId);
  if (problem) errors.workflowId = { messages: [problem], value: input.workflowId };
  if (input.severity !== undefined && !SEVERITIES.includes(input.severity)) {
    errors.severity = { messages: [`must be one of ${SEVERITIES.join(', ')}`], value: input.severity };
  }
  const tags = validateTags(input.tags, errors);
  const payloadSchema = validatePayloadSchema(input.payloadSchema, errors);
  const rawSteps = input.steps ?? null;
  const steps = rawSteps ? validateSteps(rawSteps, errors) : (existing?.steps ?? []);
  if (Object.keys(errors).length) throw DomainError.validation(errors);

  return {
    workflowId,
    name,
    description: input.description !== undefined ? input.description : (existing?.description ?? null),
    tags: tags ?? existing?.tags ?? [],
    active: input.active ?? existing?.active ?? true,
    critical: input.critical ?? existing?.critical ?? false,
    severity: input.severity ?? existing?.severity ?? 'none',
    origin: input.origin ?? existing?.origin,
    payloadSchema: payloadSchema !== undefined ? payloadSchema : (existing?.payloadSchema ?? null),
    preferences: input.preferences ?? existing?.preferences ?? {},
    data: input.data !== undefined ? input.data : (existing?.data ?? null),
    isTranslationEnabled: input.isTranslationEnabled ?? existing?.isTranslationEnabled ?? false,
    steps: steps.map(({ stepId, name: stepName, type, controlValues, skip }) => ({ stepId, name: stepName, type, controlValues, skip })),
  };
}
