import type { WebhookAttemptResult, WebhookDispatchObserver } from '@herald/domain';
import type { Logger } from 'pino';
import type { HeraldMetrics } from './metrics';

/** What the operator hears of outbound webhooks: a warning per endpoint disabled, counters when metrics are on. */
export class WebhookDispatchLog implements WebhookDispatchObserver {
  constructor(
    private readonly logger: Logger,
    private readonly metrics?: HeraldMetrics,
  ) {}

  attempted(results: readonly WebhookAttemptResult[]): void {
    for (const r of results) {
      const outcome = r.succeeded ? 'delivered' : r.nextAttemptAt ? 'retrying' : 'failed';
      this.metrics?.webhookAttempts.inc({ outcome });
      if (outcome === 'failed') this.logger.warn({ endpointId: r.endpointId, deliveryId: r.deliveryId, attempts: r.attempt, error: r.error }, 'webhook delivery gave up: its retry schedule is spent');
    }
  }

  disabled(endpointIds: readonly string[]): void {
    for (const endpointId of endpointIds) {
      this.metrics?.webhookEndpointsDisabled.inc();
      this.logger.warn({ endpointId }, 'webhook endpoint disabled: every attempt failed for too long; enable it again through the API once it answers');
    }
  }
}
