import { SEVERITIES, STEP_TYPES, type Severity, type WorkflowStepType } from '../entities/channel';
import type { WorkflowPreferenceDefaults } from '../entities/preferences';
import { identifierProblem, type Workflow, type WorkflowDraft } from '../entities/workflow';
import type { FieldErrors } from '../errors';
import { isObject, type JsonObject } from './control-reader';

const STEP_KINDS = STEP_TYPES.filter((t): t is WorkflowStepType => t !== 'trigger');
const MAX_WORKFLOWS = 500;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const schemaOf = (value: unknown): JsonObject => (isObject(value) && isObject(value.schema) ? value.schema : { type: 'object' });

/**
 * The framework's preferences (`{all: {enabled, readOnly}, channels: {in_app: {enabled}}}`, channel
 * names already mapped by the bridge) as Herald's workflow defaults: the same shape, fields checked.
 */
function preferences(value: unknown): WorkflowPreferenceDefaults {
  if (!isObject(value)) return {};
  const out: WorkflowPreferenceDefaults = {};
  if (isObject(value.all)) out.all = { ...(typeof value.all.enabled === 'boolean' ? { enabled: value.all.enabled } : {}), ...(typeof value.all.readOnly === 'boolean' ? { readOnly: value.all.readOnly } : {}) };
  if (isObject(value.channels)) {
    out.channels = Object.fromEntries(
      Object.entries(value.channels)
        .filter(([channel, flags]) => ['in_app', 'email', 'sms', 'chat', 'push'].includes(channel) && isObject(flags) && typeof flags.enabled === 'boolean')
        .map(([channel, flags]) => [channel, { enabled: (flags as { enabled: boolean }).enabled }]),
    );
  }
  return out;
}

/**
 * A bridge's discover answer as workflow drafts of origin `external`, or what is wrong with it
 * (fields named `workflows[i]...`). `existing` keeps what users edit on synced workflows across
 * syncs: each remaining step's control values and the workflow's activation.
 */
export function discoveredWorkflows(answer: unknown, existing: Workflow[]): { drafts: WorkflowDraft[] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const list = isObject(answer) && Array.isArray(answer.workflows) ? answer.workflows : null;
  if (!list) return { errors: { workflows: { messages: ["the bridge's discover answer has no workflows list"] } } };
  if (list.length > MAX_WORKFLOWS) return { errors: { workflows: { messages: [`at most ${MAX_WORKFLOWS} workflows per bridge`], value: list.length } } };
  const seen = new Set<string>();
  const drafts = list.map((item, i): WorkflowDraft => {
    const at = `workflows[${i}]`;
    const w = isObject(item) ? item : {};
    const workflowId = typeof w.workflowId === 'string' ? w.workflowId : '';
    const problem = identifierProblem(workflowId);
    if (problem) errors[`${at}.workflowId`] = { messages: [problem], value: w.workflowId };
    else if (seen.has(workflowId)) errors[`${at}.workflowId`] = { messages: ['is discovered twice'], value: workflowId };
    seen.add(workflowId);
    const before = existing.find((e) => e.workflowId === workflowId);
    const steps = (Array.isArray(w.steps) ? w.steps : []).map((raw, j) => {
      const s = isObject(raw) ? raw : {};
      const stepId = typeof s.stepId === 'string' ? s.stepId : '';
      const type = s.type as WorkflowStepType;
      if (identifierProblem(stepId)) errors[`${at}.steps[${j}].stepId`] = { messages: [identifierProblem(stepId)!], value: s.stepId };
      if (!STEP_KINDS.includes(type)) errors[`${at}.steps[${j}].type`] = { messages: [`a ${String(s.type)} step cannot run in Herald (supported: ${STEP_KINDS.join(', ')})`], value: s.type };
      const kept = before?.steps.find((b) => b.stepId === stepId && b.type === type);
      return { stepId, name: stepId, type, controlValues: kept?.controlValues ?? {}, skip: null, schemas: { controls: schemaOf(s.controls), outputs: schemaOf(s.outputs) } };
    });
    const severity = SEVERITIES.includes(w.severity as Severity) ? (w.severity as Severity) : 'none';
    return {
      workflowId,
      name: typeof w.name === 'string' && w.name.trim() ? w.name.trim() : workflowId,
      description: typeof w.description === 'string' ? w.description : null,
      tags: [...new Set(strings(w.tags))],
      active: before?.active ?? true,
      critical: false,
      severity,
      payloadSchema: schemaOf(w.payload),
      preferences: preferences(w.preferences),
      data: null,
      isTranslationEnabled: false,
      origin: 'external',
      steps,
    };
  });
  return Object.keys(errors).length ? { errors } : { drafts };
}
