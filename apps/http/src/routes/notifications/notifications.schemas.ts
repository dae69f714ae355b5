import { z } from '@hono/zod-openapi';
import { JOB_STATUSES, SEVERITIES, STEP_TYPES } from '@herald/domain';
import { queryArray } from '../../platform/schemas';

/** An ISO 8601 timestamp (or milliseconds since the epoch) in a query string. */
const queryTimestamp = z
  .string()
  .refine((s) => !Number.isNaN(/^\d+$/.test(s) ? Number(s) : Date.parse(s)), 'must be an ISO 8601 timestamp')
  .transform((s) => new Date(/^\d+$/.test(s) ? Number(s) : s));

export const ActivityQuerySchema = z.object({
  channels: queryArray(z.string()),
  templates: queryArray(z.string()),
  emails: queryArray(z.string()),
  subscriberIds: queryArray(z.string()),
  severity: queryArray(z.enum(SEVERITIES)),
  status: queryArray(z.enum(JOB_STATUSES)).openapi({ description: 'Notifications with a step in any of these statuses (a Herald extension)' }),
  transactionId: z.string().optional(),
  topicKey: z.string().optional(),
  subscriptionId: z.string().optional(),
  contextKeys: queryArray(z.string()),
  after: queryTimestamp.optional(),
  before: queryTimestamp.optional(),
  search: z.string().optional().openapi({ deprecated: true, description: 'A transactionId, or a subscriber id or email' }),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

const ExecutionDetailSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  status: z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']),
  source: z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']),
  detail: z.string(),
  isRetry: z.boolean(),
  isTest: z.boolean(),
  providerId: z.string().optional(),
  raw: z.string().nullable(),
});

const StepSchema = z.object({
  _id: z.string(),
  _templateId: z.string(),
  _parentId: z.null(),
  stepId: z.string(),
  name: z.string(),
  active: z.boolean(),
  filters: z.array(z.record(z.string(), z.unknown())),
});

const MessageSchema = z.object({
  _id: z.string(),
  channel: z.string(),
  providerId: z.string().optional(),
  status: z.string(),
  destination: z.unknown(),
  subject: z.string().optional(),
  body: z.string(),
  createdAt: z.string(),
});

const JobSchema = z.object({
  _id: z.string(),
  type: z.enum(STEP_TYPES),
  status: z.string(),
  providerId: z.string(),
  digest: z.record(z.string(), z.unknown()).optional(),
  payload: z.record(z.string(), z.unknown()),
  overrides: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
  scheduleExtensionsCount: z.number(),
  step: StepSchema,
  executionDetails: z.array(ExecutionDetailSchema),
  message: MessageSchema.optional().openapi({ description: 'What the step produced, when it produced a message' }),
});

export const ActivityNotificationSchema = z
  .object({
    _id: z.string(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    _subscriberId: z.string(),
    _templateId: z.string(),
    _digestedNotificationId: z.string().optional(),
    transactionId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    channels: z.array(z.string()),
    subscriber: z.object({
      _id: z.string(),
      subscriberId: z.string(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
    }),
    template: z
      .object({
        _id: z.string(),
        name: z.string(),
        origin: z.string(),
        triggers: z.array(z.object({ type: z.literal('event'), identifier: z.string(), variables: z.array(z.object({ name: z.string() })) })),
      })
      .optional(),
    jobs: z.array(JobSchema),
    payload: z.record(z.string(), z.unknown()),
    controls: z.record(z.string(), z.unknown()).optional(),
    to: z.record(z.string(), z.unknown()).optional(),
    tags: z.array(z.string()),
    topics: z.array(z.object({ _topicId: z.string(), topicKey: z.string() })),
    severity: z.enum(SEVERITIES),
    critical: z.boolean(),
    contextKeys: z.array(z.string()),
  })
  .openapi('ActivityNotification');

export const ActivityPageSchema = z
  .object({ hasMore: z.boolean(), data: z.array(ActivityNotificationSchema), pageSize: z.number(), page: z.number() })
  .openapi('ActivityPage');

export const TriggerProgressSchema = z
  .object({
    transactionId: z.string(),
    topicKeys: z.array(z.string()).openapi({ description: 'The topics it was triggered to; empty for a trigger to subscribers only' }),
    status: z.string().openapi({ description: '`fanning_out` while topic recipients are being expanded, then `fanned_out` (or `canceled`)' }),
    recipients: z.number().openapi({ description: 'Notifications written for the trigger so far: its recipients expanded' }),
    total: z.number().openapi({ description: "recipients plus the topics' subscriptions not yet reached: an upper bound while it fans out, equal to recipients once done" }),
    createdAt: z.string(),
    fannedOutAt: z.string().nullable(),
  })
  .openapi('TriggerProgress');
