/** What Herald tells a team's own systems about, by outbound webhook (docs/webhooks.md lists the payloads). */
export const WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.failed',
  'message.delivered',
  'message.bounced',
  'message.read',
  'message.seen',
  'message.archived',
  'workflow_step.failed',
  'notification.completed',
  'subscriber.created',
  'subscriber.updated',
  'subscriber.deleted',
  'preference.updated',
  'workflow.created',
  'workflow.updated',
  'workflow.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An endpoint's limits, the same through the API and the operator command. */
export const WEBHOOK_DESCRIPTION_MAX = 500;
/** The longest endpoint address kept. */
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_SECRET_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;

/** An HTTPS (or, where private networks are allowed, HTTP) address that receives an environment's events. */
export interface WebhookEndpoint {
  id: string;
  environmentId: string;
  url: string;
  description: string | null;
  /** The types it receives; empty: every type. */
  eventTypes: WebhookEventType[];
  enabled: boolean;
  /** Why Herald disabled it (sustained failures); null when enabled or disabled by a person. */
  disabledReason: string | null;
  /** Since when every attempt to it has failed; null after a success. */
  failingSince: Date | null;
  /** Until when the secret before the last rotation still signs too; null without an overlap. */
  previousSecretUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The signing secrets of an endpoint: the current one, and the previous one during a rotation's overlap. */
export interface WebhookSecrets {
  current: string;
  previous?: string;
  previousUntil?: string;
}

/** An event as it is appended to the outbox. */
export interface WebhookEventDraft {
  environmentId: string;
  type: WebhookEventType;
  /** Events with the same key reach an endpoint in the order they were written (a notification's, a subscriber's). */
  orderingKey: string;
  data: Record<string, unknown>;
}

/** One event on its way to one endpoint, claimed for an attempt. */
export interface WebhookDelivery {
  id: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and replay. */
  eventId: string;
  endpointId: string;
  environmentId: string;
  url: string;
  /** Every secret that signs now (two during a rotation's overlap). */
  secrets: string[];
  type: WebhookEventType;
  /** The exact body sent: `{type, timestamp, data}` as JSON. */
  body: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** What one attempt found. */
export interface WebhookAttemptResult {
  deliveryId: string;
  endpointId: string;
  /** 1 for the first attempt. */
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  /** The start of the response body, at most WEBHOOK_RESPONSE_BODY_LIMIT characters. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  /** When to try again; null: no more attempts (success, or the schedule is spent). */
  nextAttemptAt: Date | null;
}

/** An attempt as the delivery log shows it. */
export interface WebhookAttempt extends Omit<WebhookAttemptResult, 'nextAttemptAt'> {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  createdAt: Date;
}

/**
 * Delays before each attempt, from the event (the Standard Webhooks / Svix schedule): at once, 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. About a day and a quarter in all.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** An endpoint whose every attempt has failed for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3600_000;

/** Response bodies are kept this short in the delivery log. */
export const WEBHOOK_RESPONSE_BODY_LIMIT = 1_024;

/** How long an attempt may take before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 15_000;

/** How long the previous secret keeps signing after a rotation, unless the rotation says otherwise. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600_000;

/**
 * When attempt number `made + 1` is due after `made` attempts failed, the last at `now`; null when
 * the schedule is spent. `schedule` is overridable so tests need not wait seconds.
 */
export function nextWebhookAttemptAt(made: number, now: Date, schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_MS): Date | null {
  if (made >= schedule.length) return null;
  return new Date(now.getTime() + schedule[made]);
}

/** A 2xx answer is a delivery; anything else (3xx included: redirects are not followed) is a failure. */
export function isWebhookSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
