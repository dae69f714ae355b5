import { CHANNEL_TYPES, SEVERITIES, WORKFLOW_ORDER_FIELDS, WORKFLOW_ORIGINS, WORKFLOW_STATUSES } from '@herald/domain';
import { z } from '@hono/zod-openapi';
import { ContextSchema, queryArray } from '../../platform/schemas';

const json = z.record(z.string(), z.unknown());

const PreferenceLevelSchema = z.strictObject({
  all: z.strictObject({ enabled: z.boolean().optional(), readOnly: z.boolean().optional() }).optional(),
  channels: z.partialRecord(z.enum(CHANNEL_TYPES), z.strictObject({ enabled: z.boolean().optional() })).optional(),
});

/** `user` (set by a person) wins over `workflow` (the author's defaults); Herald keeps one set of defaults. */
export const PreferencesRequestSchema = z
  .strictObject({ user: PreferenceLevelSchema.nullable().optional(), workflow: PreferenceLevelSchema.nullable().optional() })
  .openapi('WorkflowPreferencesRequest');

// The step's keys are fixed here; their values are checked by the domain, one by one, so every error
// names `steps[i].<field>`. `_id` and `providerOverrides` are sent by @novu/api and not kept.
const StepInputSchema = z
  .strictObject({
    _id: z.string().optional(),
    stepId: z.unknown().optional(),
    name: z.unknown().optional(),
    type: z.unknown().optional(),
    controlValues: z.unknown().optional(),
    providerOverrides: z.record(z.string(), json).nullable().optional(),
  })
  .openapi('WorkflowStepInput', {
    description: 'A step: type (in_app, email, sms, chat, push, digest, delay, throttle, http_request, custom), name, stepId?, controlValues?',
    example: { type: 'in_app', name: 'Bell', controlValues: { body: 'Order {{payload.orderId}} shipped' } },
  });

const WorkflowFields = {
  description: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  critical: z.boolean().optional(),
  severity: z.enum(SEVERITIES).optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: json.nullable().optional().openapi({ description: 'JSON schema trigger payloads are validated against' }),
  isTranslationEnabled: z.boolean().optional(),
  preferences: PreferencesRequestSchema.optional(),
  data: json.nullable().optional(),
  origin: z.enum(WORKFLOW_ORIGINS).optional(),
  steps: z.array(StepInputSchema).optional(),
  // Sent by @novu/api for Novu's agents and dashboard analytics: accepted, not kept.
  agent: z.strictObject({ identifier: z.string(), providers: z.record(z.string(), z.strictObject({ replyTo: z.string().optional() })).optional() }).nullable().optional(),
  __source: z.string().optional(),
};

export const CreateWorkflowSchema = z
  .strictObject({
    name: z.string(),
    workflowId: z.string().optional().openapi({ description: 'Trigger identifier; derived from the name when absent' }),
    ...WorkflowFields,
  })
  .openapi('CreateWorkflowRequest');

export const UpdateWorkflowSchema = z
  .strictObject({ name: z.string().optional(), workflowId: z.string().optional(), ...WorkflowFields })
  .openapi('UpdateWorkflowRequest');

export const PatchWorkflowSchema = z
  .strictObject({
    active: z.boolean().optional(),
    name: z.string().optional(),
    description: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    critical: z.boolean().optional(),
    severity: z.enum(SEVERITIES).optional(),
    payloadSchema: json.nullable().optional(),
    validatePayload: z.boolean().optional(),
    isTranslationEnabled: z.boolean().optional(),
    data: json.nullable().optional(),
  })
  .openapi('PatchWorkflowRequest');

export const ListWorkflowsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  orderBy: z.enum(WORKFLOW_ORDER_FIELDS).default('createdAt'),
  orderDirection: z.enum(['ASC', 'DESC']).default('DESC'),
  query: z.string().optional().openapi({ description: 'Case-insensitive search in the name and trigger identifier' }),
  tags: queryArray(z.string()).openapi({ description: 'Workflows with any of these tags; repeat the parameter' }),
  status: queryArray(z.enum(WORKFLOW_STATUSES)).openapi({ description: 'ACTIVE, INACTIVE or ERROR; repeat the parameter' }),
});

export const PreviewPayloadSchema = z
  .strictObject({
    subscriber: json.optional(),
    actor: json.optional(),
    payload: json.optional(),
    steps: json.optional(),
    context: ContextSchema.optional(),
    env: json.optional(),
  })
  .openapi('PreviewPayload');

export const PreviewRequestSchema = z
  .strictObject({ controlValues: json.optional(), previewPayload: PreviewPayloadSchema.optional() })
  .openapi('GeneratePreviewRequest');

const IssueSchema = z.object({ issueType: z.string(), variableName: z.string().optional(), message: z.string() });
export const StepIssuesSchema = z
  .object({ controls: z.record(z.string(), z.array(IssueSchema)).optional(), integration: z.record(z.string(), z.array(IssueSchema)).optional() })
  .openapi('StepIssues');

export const StepResponseSchema = z
  .object({
    _id: z.string(),
    stepId: z.string(),
    slug: z.string(),
    name: z.string(),
    type: z.string(),
    origin: z.enum(WORKFLOW_ORIGINS),
    workflowId: z.string(),
    workflowDatabaseId: z.string(),
    controls: z.object({ dataSchema: json.optional().openapi({ description: "JSON schema of the step's controls, as a synced workflow's code declares it" }), values: json }),
    controlValues: json,
    variables: json.openapi({ description: 'JSON schema of the variables the step can read' }),
    issues: StepIssuesSchema.optional(),
  })
  .openapi('WorkflowStep');

const PreferenceSetSchema = z.object({
  all: z.object({ enabled: z.boolean(), readOnly: z.boolean() }),
  channels: z.record(z.string(), z.object({ enabled: z.boolean() })),
});

const WorkflowCommon = {
  _id: z.string(),
  workflowId: z.string(),
  slug: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  status: z.enum(WORKFLOW_STATUSES),
  origin: z.enum(WORKFLOW_ORIGINS),
  isTranslationEnabled: z.boolean(),
  lastTriggeredAt: z.string().nullable(),
  lastPublishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const WorkflowResponseSchema = z
  .object({
    ...WorkflowCommon,
    description: z.string().optional(),
    active: z.boolean(),
    critical: z.boolean(),
    severity: z.enum(SEVERITIES),
    validatePayload: z.boolean(),
    payloadSchema: json.nullable(),
    data: json.nullable(),
    preferences: z.object({ user: PreferenceSetSchema.nullable(), default: PreferenceSetSchema }),
    steps: z.array(StepResponseSchema),
  })
  .openapi('Workflow');

export const WorkflowListItemSchema = z
  .object({
    ...WorkflowCommon,
    stepTypeOverviews: z.array(z.string()),
    steps: z.array(z.object({ slug: z.string(), type: z.string(), issues: StepIssuesSchema.optional() })),
  })
  .openapi('WorkflowListItem');

export const WorkflowListSchema = z.object({ workflows: z.array(WorkflowListItemSchema), totalCount: z.number() }).openapi('WorkflowList');

export const PreviewResponseSchema = z
  .object({
    previewPayloadExample: PreviewPayloadSchema,
    schema: json.nullable(),
    result: json.openapi({ description: '{type, preview} per step type, or {type, error: {title, message, hint}}' }),
  })
  .catchall(z.unknown())
  .openapi('GeneratePreviewResponse', { description: 'For http_request steps also `<service>Signature`: the signature header value' });
