import type { WebhookAttempt, WebhookEndpoint } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { WebhookAttemptSchema, WebhookEndpointSchema } from './webhooks.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentWebhookEndpoint(e: WebhookEndpoint): z.infer<typeof WebhookEndpointSchema> {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    previousSecretUntil: iso(e.previousSecretUntil),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function presentWebhookAttempt(a: WebhookAttempt): z.infer<typeof WebhookAttemptSchema> {
  return {
    id: a.id,
    eventId: a.eventId,
    eventType: a.eventType,
    deliveryId: a.deliveryId,
    attempt: a.attempt,
    succeeded: a.succeeded,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    durationMs: a.durationMs,
    createdAt: a.createdAt.toISOString(),
  };
}
