import {
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_RESPONSE_BODY_LIMIT,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_TIMEOUT_MS,
  isWebhookSuccess,
  nextWebhookAttemptAt,
  type WebhookAttemptResult,
  type WebhookDelivery,
} from '../../entities/webhook';
import type { HttpClient } from '../../ports/http-client';
import type { WebhookOutbox } from '../../ports/webhook-outbox';
import { signWebhook } from '../../rules/webhook-signature';

export interface WebhookDispatchSettings {
  /** Delays before each attempt (WEBHOOK_RETRY_SCHEDULE_MS). */
  scheduleMs: readonly number[];
  timeoutMs: number;
  disableAfterMs: number;
  /** Deliveries claimed (and attempted at once) per round. */
  batch: number;
}

export const DEFAULT_WEBHOOK_DISPATCH: WebhookDispatchSettings = {
  scheduleMs: WEBHOOK_RETRY_SCHEDULE_MS,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  disableAfterMs: WEBHOOK_DISABLE_AFTER_MS,
  batch: 32,
};

/** Told what a round did: metrics and the operator's log listen. */
export interface WebhookDispatchObserver {
  attempted(results: readonly WebhookAttemptResult[]): void;
  disabled(endpointIds: readonly string[]): void;
}

/**
 * One round of outbound webhooks: claims due deliveries, sends each signed (Standard Webhooks
 * headers) through the outbound guard, and records every attempt. Returns how many it attempted, so
 * a caller runs rounds until one comes back short.
 */
export class DispatchWebhooks {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly http: HttpClient,
    private readonly settings: WebhookDispatchSettings = DEFAULT_WEBHOOK_DISPATCH,
    private readonly observer?: WebhookDispatchObserver,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(): Promise<number> {
    // The lease outlasts an attempt's timeout, so a slow endpoint is not sent the same event twice at once.
    const deliveries = await this.outbox.claim(this.settings.batch, this.settings.timeoutMs * 2 + 5_000);
    if (!deliveries.length) return 0;
    const results = await Promise.all(deliveries.map((d) => this.attempt(d)));
    const { disabled } = await this.outbox.record(results, new Date(this.now().getTime() - this.settings.disableAfterMs));
    this.observer?.attempted(results);
    if (disabled.length) this.observer?.disabled(disabled);
    return deliveries.length;
  }

  private async attempt(delivery: WebhookDelivery): Promise<WebhookAttemptResult> {
    const started = performance.now();
    const attempt = delivery.attempts + 1;
    const base = { deliveryId: delivery.id, endpointId: delivery.endpointId, attempt };
    const settle = (succeeded: boolean, responseStatus: number | null, responseBody: string | null, error: string | null): WebhookAttemptResult => ({
      ...base,
      succeeded,
      responseStatus,
      responseBody: responseBody === null ? null : responseBody.slice(0, WEBHOOK_RESPONSE_BODY_LIMIT),
      error,
      durationMs: Math.round(performance.now() - started),
      nextAttemptAt: succeeded ? null : nextWebhookAttemptAt(attempt, this.now(), this.settings.scheduleMs),
    });
    try {
      const headers = signWebhook(delivery.secrets, `msg_${delivery.eventId}`, this.now(), delivery.body);
      const response = await this.http.request({
        method: 'POST',
        url: delivery.url,
        headers: { 'content-type': 'application/json', 'user-agent': 'Herald-Webhooks/1', ...headers },
        body: delivery.body,
        timeoutMs: this.settings.timeoutMs,
      });
      const ok = isWebhookSuccess(response.status);
      return settle(ok, response.status, response.body, ok ? null : `the endpoint answered ${response.status}`);
    } catch (err) {
      return settle(false, null, null, (err as Error).message);
    }
  }
}
