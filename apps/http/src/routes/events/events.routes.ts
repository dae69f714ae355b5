import { createRoute, z } from '@hono/zod-openapi';
import { ContextSchema, dataEnvelope, errorResponses, ErrorSchema, jsonBody, jsonContent } from '../../platform/schemas';
import { ChannelSettingsInputSchema } from '../subscribers/subscribers.schemas';

const SubscriberRecipient = z
  .strictObject({
    subscriberId: z.string().min(1),
    firstName: z.string().nullable().optional(),
    lastName: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
    avatar: z.string().nullable().optional(),
    locale: z.string().nullable().optional(),
    timezone: z.string().nullable().optional(),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    // Channel settings a recipient carries: stored on the subscriber, merged per integration, and used for this delivery.
    channels: z.array(ChannelSettingsInputSchema).max(20).optional(),
  })
  .openapi('SubscriberRecipient');

const TopicRecipient = z
  .strictObject({ type: z.literal('Topic'), topicKey: z.string().min(1), exclude: z.array(z.string()).optional() })
  .openapi('TopicRecipient');

const Recipient = z.union([z.string(), TopicRecipient, SubscriberRecipient]);

const TenantSchema = z.strictObject({ identifier: z.string().optional(), name: z.string().optional(), data: z.record(z.string(), z.unknown()).optional() });

/** What @novu/api and @novu/framework send; `bridgeUrl`, `controls` and `agentId` are accepted and ignored (Herald runs no bridge or agents). */
export const TriggerSchema = z
  .strictObject({
    name: z.string().min(1, 'the workflow trigger identifier is required'),
    to: z.union([Recipient, z.array(Recipient)]),
    payload: z.record(z.string(), z.unknown()).optional(),
    overrides: z.record(z.string(), z.unknown()).optional(),
    transactionId: z.string().min(1).max(255).optional(),
    actor: z.union([z.string(), SubscriberRecipient]).optional(),
    tenant: z.union([z.string(), TenantSchema]).optional(),
    context: ContextSchema.optional(),
    bridgeUrl: z.string().optional(),
    controls: z.record(z.string(), z.unknown()).optional(),
    agentId: z.string().nullable().optional(),
  })
  .openapi('TriggerEventRequest');

export const TriggerResultSchema = z
  .object({
    acknowledged: z.boolean(),
    status: z.enum(['error', 'trigger_not_active', 'no_workflow_active_steps_defined', 'no_workflow_steps_defined', 'processed', 'no_tenant_found', 'invalid_recipients']),
    error: z.array(z.string()).optional(),
    transactionId: z.string().optional(),
    activityFeedLink: z.string().optional(),
  })
  .openapi('TriggerEventResponse');

/** The 400 existing SDKs parse when the payload fails the workflow's payload schema. */
// Spread, not .extend(): the generator would render allOf with Error, whose `errors` is a record.
const PayloadValidationErrorSchema = z
  .object({
    ...ErrorSchema.shape,
    type: z.literal('PAYLOAD_VALIDATION_ERROR'),
    errors: z.array(z.object({ field: z.string(), message: z.string(), value: z.unknown().optional() })),
  })
  .openapi('PayloadValidationError');

export const trigger = createRoute({
  method: 'post',
  path: '/v1/events/trigger',
  tags: ['Events'],
  summary: 'Trigger a workflow for subscribers and topics (at most 100 recipients)',
  description:
    'Answers 201 once the event and its work are committed. A reused transactionId is ignored: status `error` and a message say so, nothing is sent.',
  request: jsonBody(TriggerSchema),
  responses: {
    201: jsonContent(dataEnvelope(TriggerResultSchema), 'The trigger outcome'),
    ...errorResponses,
    400: jsonContent(z.union([PayloadValidationErrorSchema, ErrorSchema]), 'Malformed JSON, or a payload the workflow refuses'),
  },
});
