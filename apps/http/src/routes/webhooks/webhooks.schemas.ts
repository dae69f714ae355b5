import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, WEBHOOK_URL_MAX } from '@herald/domain';
import { z } from '@hono/zod-openapi';

const EventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).max(WEBHOOK_EVENT_TYPES.length * 2).openapi({ description: 'The event types it receives; empty or absent: every type' });

// Strict: a misspelt key ("eventType", "enable") is a 422 naming it, never silently ignored.
export const CreateWebhookEndpointSchema = z
  .strictObject({
    url: z.string().min(1).max(WEBHOOK_URL_MAX).openapi({ description: 'https (http and private addresses only where HERALD_ALLOW_PRIVATE_NETWORKS is on)' }),
    description: z.string().max(WEBHOOK_DESCRIPTION_MAX).nullable().optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('CreateWebhookEndpointRequest');

export const UpdateWebhookEndpointSchema = z
  .strictObject({
    url: z.string().min(1).max(WEBHOOK_URL_MAX).optional(),
    description: z.string().max(WEBHOOK_DESCRIPTION_MAX).nullable().optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional().openapi({ description: 'true also resumes an endpoint Herald disabled after sustained failures' }),
  })
  .openapi('UpdateWebhookEndpointRequest');

export const RotateWebhookSecretSchema = z
  .strictObject({
    overlapSeconds: z.number().int().min(0).max(WEBHOOK_SECRET_OVERLAP_MAX_SECONDS).optional().openapi({ description: 'How long the old secret still signs beside the new one (default 86400)' }),
  })
  .openapi('RotateWebhookSecretRequest');

// One closed object rather than a union of two, so that its unknown keys are named like every other body's.
export const ReplayWebhookSchema = z
  .strictObject({
    attemptId: z.string().min(1).optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((b) => (b.attemptId === undefined) === (b.since !== undefined && b.until !== undefined) && (b.since === undefined) === (b.until === undefined), {
    path: ['attemptId'],
    message: 'give either attemptId, or since and until',
  })
  .openapi('ReplayWebhookRequest', { description: "One attempt's event ({attemptId}), or every event sent to the endpoint in [since, until)" });

export const AttemptsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.string().optional().openapi({ description: 'The id of the last attempt of the previous page' }),
});

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: z.string().nullable(),
    previousSecretUntil: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({ description: 'The signing secret (whsec_...): shown this once, stored encrypted' }),
}).openapi('WebhookEndpointWithSecret');

export const WebhookAttemptSchema = z
  .object({
    id: z.string(),
    eventId: z.string().openapi({ description: 'The webhook-id header sent: msg_<eventId>' }),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    deliveryId: z.string(),
    attempt: z.number(),
    succeeded: z.boolean(),
    responseStatus: z.number().nullable(),
    responseBody: z.string().nullable().openapi({ description: 'The first 1,024 characters' }),
    error: z.string().nullable(),
    durationMs: z.number(),
    createdAt: z.string(),
  })
  .openapi('WebhookAttempt');
