import type { DeliveryObserver, JobOutcome } from '@herald/domain';
import { deliveryCounts } from './delivery-outcomes';
import type { HeraldMetrics } from './metrics';

/** Counts recorded step runs and channel deliveries: counter increments only, no I/O. */
export class DeliveryMetricsObserver implements DeliveryObserver {
  constructor(private readonly metrics: HeraldMetrics) {}

  recorded(outcomes: readonly JobOutcome[]): void {
    for (const outcome of outcomes) {
      this.metrics.steps.inc({ type: outcome.job.step.type, status: outcome.status });
      for (const c of deliveryCounts(outcome)) {
        this.metrics.deliveries.inc(c.reason ? { channel: c.channel, provider: c.provider, outcome: c.outcome, reason: c.reason } : { channel: c.channel, provider: c.provider, outcome: c.outcome });
      }
    }
  }
}
