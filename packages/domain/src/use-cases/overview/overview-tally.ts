import type { OverviewCount, OverviewMetric } from '../../entities/overview';
import type { DeliveryObserver } from '../../ports/delivery-observer';
import type { JobOutcome } from '../../ports/job-repository';
import { deliveryCounts, providerAttempts } from '../../rules/delivery-outcomes';
import { lagBucketLabel } from '../../rules/lag-histogram';
import { timeOfTimeOrderedId } from '../../rules/time-ordered-id';

const HOUR_MS = 3_600_000;

/**
 * The Overview's counts as they happen, summed in memory per environment, hour and key, until the
 * next flush (`FlushOverviewCounts`) adds them to the rollup in one statement. It hears triggers
 * (`triggered`) and recorded step runs (a delivery observer), so the trigger and delivery paths gain
 * no statement: what they pay is a map update each.
 */
export class OverviewTally implements DeliveryObserver {
  private counts = new Map<string, OverviewCount>();
  /**
   * The count each metric last added to. A batch of outcomes mostly repeats one key per metric (a
   * fan-out chunk: one environment, hour, channel and provider), so most adds skip building the key
   * string and its map lookup (3% of a fan-out's service CPU, garbage aside).
   */
  private last = new Map<OverviewMetric, OverviewCount>();

  constructor(private readonly now: () => number = Date.now) {}

  triggered(environmentId: string): void {
    this.add(environmentId, this.hourOf(this.now()), 'trigger', '', '', '', 1);
  }

  recorded(outcomes: readonly JobOutcome[]): void {
    const now = this.now();
    const hour = this.hourOf(now);
    for (const outcome of outcomes) {
      const counts = deliveryCounts(outcome);
      if (!counts.length) continue;
      const { environmentId, notificationId } = outcome.job;
      for (const c of counts) {
        if (c.outcome === 'sent' || c.outcome === 'skipped' || c.outcome === 'failed') this.add(environmentId, hour, 'delivery', c.channel, c.provider, c.outcome, 1);
      }
      const channel = counts[0].channel;
      for (const attempt of providerAttempts(outcome)) {
        if (attempt.status === 'Failed') this.add(environmentId, hour, 'provider_failure', channel, attempt.providerId!, '', 1);
      }
      const createdAt = outcome.status === 'completed' ? timeOfTimeOrderedId(notificationId) : null;
      if (createdAt !== null) this.add(environmentId, hour, 'lag', channel, '', lagBucketLabel(Math.max(0, now - createdAt)), 1);
    }
  }

  /** Everything counted since the last drain, sorted by key (so concurrent adders take row locks in one order). */
  drain(): OverviewCount[] {
    const counts = [...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
    this.counts = new Map();
    this.last = new Map();
    return counts;
  }

  /** Gives back counts a flush could not store, to be tried again with the next. */
  restore(counts: readonly OverviewCount[]): void {
    for (const c of counts) this.add(c.environmentId, c.hour.getTime(), c.metric, c.channel, c.providerId, c.outcome, c.count);
  }

  private hourOf(ms: number): number {
    return ms - (ms % HOUR_MS);
  }

  private add(environmentId: string, hour: number, metric: OverviewMetric, channel: string, providerId: string, outcome: string, n: number): void {
    const last = this.last.get(metric);
    if (last && last.environmentId === environmentId && last.hour.getTime() === hour && last.channel === channel && last.providerId === providerId && last.outcome === outcome) {
      last.count += n;
      return;
    }
    const key = `${environmentId}|${hour}|${metric}|${channel}|${providerId}|${outcome}`;
    let count = this.counts.get(key);
    if (count) count.count += n;
    else this.counts.set(key, (count = { environmentId, hour: new Date(hour), metric, channel, providerId, outcome, count: n }));
    this.last.set(metric, count);
  }
}
