import type { DeliveryObserver, JobOutcome } from '@herald/domain';
import type { Counter } from 'prom-client';
import { deliveryCounts } from './delivery-outcomes';
import type { HeraldMetrics } from './metrics';

/**
 * Counts recorded step runs and channel deliveries: counter increments only, no I/O. The outcomes of
 * one batch (a fan-out chunk's thousand) are summed per label set first, so the counters hash each
 * label set once per batch rather than once per outcome.
 */
export class DeliveryMetricsObserver implements DeliveryObserver {
  constructor(private readonly metrics: HeraldMetrics) {}

  recorded(outcomes: readonly JobOutcome[]): void {
    const steps = new Tally(this.metrics.steps);
    const deliveries = new Tally(this.metrics.deliveries);
    for (const outcome of outcomes) {
      steps.add({ type: outcome.job.step.type, status: outcome.status });
      for (const c of deliveryCounts(outcome)) {
        deliveries.add(c.reason ? { channel: c.channel, provider: c.provider, outcome: c.outcome, reason: c.reason } : { channel: c.channel, provider: c.provider, outcome: c.outcome });
      }
    }
    steps.flush();
    deliveries.flush();
  }
}

/** Increments of one counter, summed per label set. */
class Tally<L extends string> {
  private readonly sums = new Map<string, { labels: Partial<Record<L, string>>; n: number }>();

  constructor(private readonly counter: Counter<L>) {}

  add(labels: Partial<Record<L, string>>): void {
    // Callers name the labels in one order. A joined key takes half the time of JSON.stringify (a
    // fan-out chunk adds two thousand).
    let key = '';
    for (const name in labels) key += `${name}=${labels[name]}\u0001`;
    const sum = this.sums.get(key);
    if (sum) sum.n++;
    else this.sums.set(key, { labels, n: 1 });
  }

  flush(): void {
    for (const { labels, n } of this.sums.values()) this.counter.inc(labels, n);
  }
}
