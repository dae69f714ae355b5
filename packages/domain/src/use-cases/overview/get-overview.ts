import type { LagSummary, Overview, OverviewBucket, OverviewCount } from '../../entities/overview';
import type { OverviewRepository } from '../../ports/overview-repository';
import { LAG_BOUNDS_MS, lagBucketIndex, lagQuantile } from '../../rules/lag-histogram';
import type { Clock } from '../../shared/clock';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The Overview of an environment: the last 24 hours by hour and the last 7 days by UTC day, read
 * from the rollup (two range reads of a few hundred rows, however many notifications there are).
 */
export class GetOverview {
  constructor(
    private readonly overview: OverviewRepository,
    private readonly clock: Clock,
  ) {}

  async execute(environmentId: string): Promise<Overview> {
    const now = this.clock.now();
    const thisHour = now.getTime() - (now.getTime() % HOUR_MS);
    const today = now.getTime() - (now.getTime() % DAY_MS);
    const firstHour = thisHour - 23 * HOUR_MS;
    const firstDay = today - 6 * DAY_MS;
    const [hours, days] = await Promise.all([
      this.overview.read(environmentId, new Date(firstHour), new Date(thisHour + HOUR_MS), 'hour'),
      this.overview.read(environmentId, new Date(firstDay), new Date(today + DAY_MS), 'day'),
    ]);
    return { generatedAt: now, hourly: buckets(hours, firstHour, 24, HOUR_MS), daily: buckets(days, firstDay, 7, DAY_MS) };
  }
}

/** `n` buckets of `size` from `first`, each summing the counts that start there (empty ones included). */
export function buckets(counts: readonly OverviewCount[], first: number, n: number, size: number): OverviewBucket[] {
  const byStart = new Map<number, OverviewCount[]>();
  for (const c of counts) {
    const list = byStart.get(c.hour.getTime());
    if (list) list.push(c);
    else byStart.set(c.hour.getTime(), [c]);
  }
  return Array.from({ length: n }, (_, i) => bucket(new Date(first + i * size), byStart.get(first + i * size) ?? []));
}

function bucket(start: Date, counts: readonly OverviewCount[]): OverviewBucket {
  const deliveries = new Map<string, { channel: string; outcome: string; count: number }>();
  const failures = new Map<string, { providerId: string; channel: string; count: number }>();
  const lags = new Map<string, number[]>();
  const all = new Array<number>(LAG_BOUNDS_MS.length + 1).fill(0);
  let triggers = 0;
  for (const c of counts) {
    if (c.metric === 'trigger') triggers += c.count;
    else if (c.metric === 'delivery') sumInto(deliveries, `${c.channel}|${c.outcome}`, { channel: c.channel, outcome: c.outcome, count: 0 }, c.count);
    else if (c.metric === 'provider_failure') sumInto(failures, `${c.providerId}|${c.channel}`, { providerId: c.providerId, channel: c.channel, count: 0 }, c.count);
    else {
      const i = lagBucketIndex(c.outcome);
      if (i < 0) continue;
      let histogram = lags.get(c.channel);
      if (!histogram) lags.set(c.channel, (histogram = new Array<number>(LAG_BOUNDS_MS.length + 1).fill(0)));
      histogram[i] += c.count;
      all[i] += c.count;
    }
  }
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  return {
    start,
    triggers,
    deliveries: [...deliveries.values()].sort((a, b) => a.channel.localeCompare(b.channel) || a.outcome.localeCompare(b.outcome)),
    providerFailures: [...failures.values()].sort(byCount),
    lag: summary(all),
    lagByChannel: [...lags.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([channel, histogram]) => ({ channel, ...summary(histogram) })),
  };
}

function sumInto<T extends { count: number }>(map: Map<string, T>, key: string, fresh: T, n: number): void {
  const entry = map.get(key) ?? (map.set(key, fresh), fresh);
  entry.count += n;
}

function summary(histogram: readonly number[]): LagSummary {
  return { count: histogram.reduce((a, b) => a + b, 0), p50Ms: lagQuantile(histogram, 0.5), p95Ms: lagQuantile(histogram, 0.95) };
}
