import { useState } from 'react';
import { api } from '../api/client';
import type { components } from '../generated/schema';
import { BarChart, type Series } from '../components/bar-chart';
import { Alert, Page, useLoad } from '../components/ui';

type Bucket = components['schemas']['OverviewBucket'];
const OUTCOME_COLORS = { sent: '#1f7a3a', skipped: '#8a6d00', failed: '#b3261e' } as const;
const PALETTE = ['#3451b2', '#b3261e', '#8a6d00', '#1f7a3a', '#6e3fa3', '#0b6e79'];

function label(bucket: Bucket, hourly: boolean): string {
  const d = new Date(bucket.start);
  return hourly ? `${String(d.getUTCHours()).padStart(2, '0')}:00` : d.toISOString().slice(0, 10);
}

/** Series of `keyOf(row)` summed per bucket, in first-seen order. */
function seriesBy<T>(buckets: Bucket[], rows: (b: Bucket) => T[], keyOf: (row: T) => string, count: (row: T) => number, color: (key: string, i: number) => string): Series[] {
  const keys = [...new Set(buckets.flatMap((b) => rows(b).map(keyOf)))];
  return keys.map((key, i) => ({
    name: key,
    color: color(key, i),
    values: buckets.map((b) => rows(b).filter((r) => keyOf(r) === key).reduce((sum, r) => sum + count(r), 0)),
  }));
}

/** Triggers, deliveries per channel and outcome, failures per provider and delivery lag: the last 24 h or 7 days. */
export function OverviewPage() {
  const [range, setRange] = useState<'hourly' | 'daily'>('hourly');
  const { data, error } = useLoad(() => api.GET('/v1/overview'), [], 10_000);
  const buckets = data?.data[range] ?? [];
  const labels = buckets.map((b) => label(b, range === 'hourly'));
  const last = buckets.at(-1);
  return (
    <Page
      title="Overview"
      actions={
        <div role="group" aria-label="Range" className="toggle">
          <button type="button" aria-pressed={range === 'hourly'} onClick={() => setRange('hourly')}>Last 24 hours</button>
          <button type="button" aria-pressed={range === 'daily'} onClick={() => setRange('daily')}>Last 7 days</button>
        </div>
      }
    >
      <Alert text={error} />
      <div className="charts">
        <BarChart title="Triggers" labels={labels} series={[{ name: 'triggers', color: PALETTE[0], values: buckets.map((b) => b.triggers) }]} />
        <BarChart title="Deliveries by outcome" labels={labels} series={seriesBy(buckets, (b) => b.deliveries, (r) => r.outcome, (r) => r.count, (k) => OUTCOME_COLORS[k as keyof typeof OUTCOME_COLORS] ?? '#555')} />
        <BarChart title="Deliveries by channel" labels={labels} series={seriesBy(buckets, (b) => b.deliveries, (r) => r.channel, (r) => r.count, (_k, i) => PALETTE[i % PALETTE.length])} />
        <BarChart title="Provider failures" labels={labels} series={seriesBy(buckets, (b) => b.providerFailures, (r) => r.providerId, (r) => r.count, (_k, i) => PALETTE[(i + 1) % PALETTE.length])} />
        <BarChart title="Delivery lag p95 (ms)" summary={`${Math.max(0, ...buckets.map((b) => b.lag.p95Ms ?? 0))} at most`} labels={labels} series={[{ name: 'p95 ms', color: PALETTE[4], values: buckets.map((b) => b.lag.p95Ms ?? 0) }]} />
      </div>
      {last ? (
        <p className="note">
          Current {range === 'hourly' ? 'hour' : 'day'}: {last.triggers} triggers, lag p50 {last.lag.p50Ms ?? '—'} ms, p95 {last.lag.p95Ms ?? '—'} ms over {last.lag.count} sends.
        </p>
      ) : null}
    </Page>
  );
}
