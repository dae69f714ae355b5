import {
  CHANNEL_TYPES,
  type EvaluatedStep,
  type EvaluatedWorkflow,
  type StepPreview,
  type WorkflowPreferenceDefaults,
} from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { PreferencesRequestSchema, PreviewResponseSchema, StepResponseSchema, WorkflowListItemSchema, WorkflowResponseSchema } from './workflows.schemas';

type Json = Record<string, unknown>;

/** The request's preferences as the one set of defaults Herald keeps: a person's `user` set wins. */
export function toPreferenceDefaults(body: z.infer<typeof PreferencesRequestSchema> | undefined): WorkflowPreferenceDefaults | undefined {
  return (body?.user ?? body?.workflow ?? undefined) as WorkflowPreferenceDefaults | undefined;
}

function presentPreferences(defaults: WorkflowPreferenceDefaults) {
  const all = { enabled: defaults.all?.enabled ?? true, readOnly: defaults.all?.readOnly ?? false };
  const channels = Object.fromEntries(CHANNEL_TYPES.map((c) => [c, { enabled: defaults.channels?.[c]?.enabled ?? all.enabled }]));
  return { user: null, default: { all, channels } };
}

// Fields clients require on some step types even in a draft that lacks them (its issues say so).
const REQUIRED_SHAPE: Partial<Record<EvaluatedStep['type'], Json>> = {
  email: { subject: '', body: '' },
  http_request: { method: 'POST', url: '' },
};

const SUBSCRIBER_VARIABLES = ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'];

/** JSON schema of what a step's templates can read: subscriber, payload (its schema), earlier steps. */
function variablesSchema(workflow: EvaluatedWorkflow, index: number): Json {
  const earlier = workflow.steps.slice(0, index).map((s) => [s.stepId, { type: 'object', additionalProperties: true }]);
  return {
    type: 'object',
    properties: {
      subscriber: {
        type: 'object',
        properties: { ...Object.fromEntries(SUBSCRIBER_VARIABLES.map((k) => [k, { type: 'string' }])), data: { type: 'object', additionalProperties: true } },
      },
      payload: workflow.payloadSchema ?? { type: 'object', additionalProperties: true },
      steps: { type: 'object', properties: Object.fromEntries(earlier) },
      context: { type: 'object', additionalProperties: true },
      env: { type: 'object', additionalProperties: true },
    },
  };
}

export function presentStep(workflow: EvaluatedWorkflow, step: EvaluatedStep, index: number): z.infer<typeof StepResponseSchema> {
  const values = { ...REQUIRED_SHAPE[step.type], ...step.controlValues, ...(step.skip !== null && typeof step.skip === 'object' ? { skip: step.skip } : {}) };
  return {
    _id: step.id,
    stepId: step.stepId,
    slug: step.stepId,
    name: step.name,
    type: step.type,
    origin: workflow.origin,
    workflowId: workflow.workflowId,
    workflowDatabaseId: workflow.id,
    controls: { ...(step.schemas?.controls ? { dataSchema: step.schemas.controls } : {}), values },
    controlValues: values,
    variables: variablesSchema(workflow, index),
    ...(step.issues ? { issues: step.issues } : {}),
  };
}

function common(w: EvaluatedWorkflow) {
  return {
    _id: w.id,
    workflowId: w.workflowId,
    slug: w.workflowId,
    name: w.name,
    tags: w.tags,
    status: w.status,
    origin: w.origin,
    isTranslationEnabled: w.isTranslationEnabled,
    lastTriggeredAt: w.lastTriggeredAt?.toISOString() ?? null,
    lastPublishedAt: w.lastPublishedAt?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function presentWorkflow(w: EvaluatedWorkflow): z.infer<typeof WorkflowResponseSchema> {
  return {
    ...common(w),
    ...(w.description !== null ? { description: w.description } : {}),
    active: w.active,
    critical: w.critical,
    severity: w.severity,
    validatePayload: w.payloadSchema !== null,
    payloadSchema: w.payloadSchema,
    data: w.data,
    preferences: presentPreferences(w.preferences),
    steps: w.steps.map((step, i) => presentStep(w, step, i)),
  };
}

export function presentWorkflowListItem(w: EvaluatedWorkflow): z.infer<typeof WorkflowListItemSchema> {
  return {
    ...common(w),
    stepTypeOverviews: [...new Set(w.steps.map((s) => s.type))],
    steps: w.steps.map((s) => ({ slug: s.stepId, type: s.type, ...(s.issues ? { issues: s.issues } : {}) })),
  };
}

/** The signature field carries the service's name (`heraldSignature`), as the interface's `svcSignature`. */
export function presentPreview(preview: StepPreview, serviceName: string): z.infer<typeof PreviewResponseSchema> {
  return {
    previewPayloadExample: preview.previewPayloadExample as z.infer<typeof PreviewResponseSchema>['previewPayloadExample'],
    schema: preview.schema,
    result: preview.result as unknown as Json,
    ...(preview.signature ? { [`${serviceName}Signature`]: preview.signature } : {}),
  };
}
