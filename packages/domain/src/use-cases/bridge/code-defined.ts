import type { Workflow, WorkflowDraft } from '../../entities/workflow';
import { DomainError, type FieldErrors } from '../../errors';
import { isObject, type JsonObject } from '../../rules/control-reader';
import { validatePayload } from '../../rules/validate-payload';
import type { WorkflowInput } from '../workflows/workflow-input';

/** What code defines on a synced workflow; a write through the API may repeat these values, not change them. */
const FROM_CODE = ['workflowId', 'name', 'description', 'tags', 'critical', 'severity', 'payloadSchema', 'preferences', 'data', 'isTranslationEnabled'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function refuse(fields: string[], workflowId: string): never {
  throw new DomainError(
    'CONFLICT',
    `Workflow '${workflowId}' is defined in code and synced from its bridge: ${fields.join(', ')} can only change in code (then sync again). Step control values and activation stay editable.`,
  );
}

/** Errors of a synced step's control values against the control schema its bridge declared. */
function controlErrors(schema: JsonObject | undefined, values: unknown, at: string): FieldErrors {
  if (!isObject(values)) return { [at]: { messages: ['must be an object'], value: values } };
  const errors = validatePayload(schema ?? null, values);
  return Object.fromEntries(Object.entries(errors).map(([field, e]) => [field.replace(/^payload/, at), e]));
}

/**
 * A PUT of a synced (`external`) workflow as a draft: only step control values (checked against
 * each step's control schema) and activation may change. Steps, when given, must list the synced
 * steps as they are (same stepIds and types, in order); anything else is refused with CONFLICT.
 */
export function externalDraft(existing: Workflow, input: WorkflowInput): WorkflowDraft {
  const changed: string[] = FROM_CODE.filter((key) => input[key] !== undefined && !same(input[key], existing[key]));
  const steps = input.steps;
  if (steps) {
    const shape = (list: Array<{ stepId?: unknown; type?: unknown }>) => list.map((s) => `${String(s.stepId)}:${String(s.type)}`).join();
    const given = steps.map((s) => (isObject(s) ? s : {}));
    const structural = given.some((s) => Object.keys(s).some((k) => !['stepId', 'type', 'name', 'controlValues', '_id', 'id'].includes(k)));
    if (shape(given) !== shape(existing.steps) || structural) changed.push('steps');
  }
  if (changed.length) refuse(changed, existing.workflowId);
  const errors: FieldErrors = {};
  const next = existing.steps.map((step, i) => {
    const raw = steps?.[i] as JsonObject | undefined;
    if (raw?.controlValues === undefined) return step;
    Object.assign(errors, controlErrors(step.schemas?.controls, raw.controlValues, `steps[${i}].controlValues`));
    return { ...step, controlValues: raw.controlValues as JsonObject };
  });
  if (Object.keys(errors).length) throw DomainError.validation(errors);
  const { id: _id, environmentId: _e, lastTriggeredAt: _t, lastPublishedAt: _p, createdAt: _c, updatedAt: _u, ...attributes } = existing;
  return { ...attributes, active: input.active ?? existing.active, steps: next.map(({ id: _step, ...s }) => s) };
}

/** A PATCH of a synced workflow may switch it on or off; other attributes come from code. */
export function assertExternalPatch(existing: Workflow, changes: Record<string, unknown>): void {
  const changed = Object.entries(changes).filter(([key, value]) => key !== 'active' && value !== undefined && !same(value, (existing as unknown as JsonObject)[key]));
  if (changed.length) refuse(changed.map(([key]) => key), existing.workflowId);
}
