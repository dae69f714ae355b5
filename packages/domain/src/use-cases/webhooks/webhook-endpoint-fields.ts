import type { WebhookEventType } from '../../entities/webhook';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, WEBHOOK_URL_MAX } from '../../entities/webhook';
import { DomainError } from '../../errors';

const KNOWN_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * The endpoint limits every caller meets (the API, the operator command, anything else): the HTTP
 * schema checks them too, but only the use cases are in every path, so they hold them.
 */
export function checkWebhookUrlLength(url: string): void {
  if (url.length > WEBHOOK_URL_MAX) throw DomainError.field('url', `at most ${WEBHOOK_URL_MAX} characters`, url.length);
}

export function checkWebhookDescription(description: string | null | undefined): void {
  if (typeof description === 'string' && description.length > WEBHOOK_DESCRIPTION_MAX) {
    throw DomainError.field('description', `at most ${WEBHOOK_DESCRIPTION_MAX} characters`, description.length);
  }
}

/** Unknown types are refused rather than stored as a subscription that can never match; duplicates collapse. */
export function checkWebhookEventTypes(types: readonly string[] | undefined): WebhookEventType[] | undefined {
  if (types === undefined) return undefined;
  const unknown = types.find((type) => !KNOWN_TYPES.has(type));
  if (unknown !== undefined) throw DomainError.field('eventTypes', `unknown event type '${unknown}'`, unknown);
  return [...new Set(types as WebhookEventType[])];
}

export function checkWebhookOverlapMs(overlapMs: number): void {
  const maxMs = WEBHOOK_SECRET_OVERLAP_MAX_SECONDS * 1000;
  if (!Number.isInteger(overlapMs) || overlapMs < 0 || overlapMs > maxMs) {
    throw DomainError.field('overlapSeconds', `a whole number of seconds from 0 to ${WEBHOOK_SECRET_OVERLAP_MAX_SECONDS}`, overlapMs / 1000);
  }
}
