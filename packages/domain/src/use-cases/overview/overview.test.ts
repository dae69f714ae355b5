import { describe, expect, it } from 'vitest';
import type { ExecutionDetailDraft } from '../../entities/delivery';
import type { OverviewCount } from '../../entities/overview';
import type { JobOutcome, RunnableJob } from '../../ports/job-repository';
import type { OverviewRepository } from '../../ports/overview-repository';
import { FlushOverviewCounts } from './flush-overview-counts';
import { GetOverview } from './get-overview';
import { OverviewTally } from './overview-tally';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 7, 10, 30);

/** A UUID version 7 made at `ms`. */
const idAt = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000000`;
};

const outcome = (type: string, status: JobOutcome['status'], details: ExecutionDetailDraft[], createdAt = T0, providerId?: string): JobOutcome =>
  ({ job: { environmentId: 'env', notificationId: idAt(createdAt), step: { type } } as RunnableJob, status, details, providerId }) as JobOutcome;
const failed = (providerId: string): ExecutionDetailDraft => ({ status: 'Failed', source: 'Internal', detail: 'provider error', providerId });
const sent = (providerId: string): ExecutionDetailDraft => ({ status: 'Success', source: 'Internal', detail: 'sent', providerId });

/** The rollup as PostgreSQL keeps it: sums per key, read back summed per hour or day. */
class InMemoryOverview implements OverviewRepository {
  readonly rows = new Map<string, OverviewCount>();
  failNext = false;
  async add(counts: readonly OverviewCount[]) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection lost');
    }
    for (const c of counts) {
      const key = `${c.environmentId}|${c.hour.getTime()}|${c.metric}|${c.channel}|${c.providerId}|${c.outcome}`;
      const row = this.rows.get(key);
      if (row) row.count += c.count;
      else this.rows.set(key, { ...c });
    }
  }
  async read(environmentId: string, from: Date, to: Date, per: 'hour' | 'day') {
    const size = per === 'hour' ? HOUR : 24 * HOUR;
    const out = new Map<string, OverviewCount>();
    for (const r of this.rows.values()) {
      if (r.environmentId !== environmentId || r.hour < from || r.hour >= to) continue;
      const start = r.hour.getTime() - (r.hour.getTime() % size);
      const key = `${start}|${r.metric}|${r.channel}|${r.providerId}|${r.outcome}`;
      const row = out.get(key) ?? { ...r, hour: new Date(start), count: 0 };
      row.count += r.count;
      out.set(key, row);
    }
    return [...out.values()];
  }
  async purgeBefore(before: Date) {
    let n = 0;
    for (const [key, r] of this.rows) if (r.hour < before) (this.rows.delete(key), n++);
    return n;
  }
}

describe('OverviewTally', () => {
  it('counts triggers, step outcomes, failed provider attempts and the lag of sends, per hour', () => {
    let now = T0 + 1_500;
    const tally = new OverviewTally(() => now);
    tally.triggered('env');
    tally.triggered('env');
    tally.recorded([
      outcome('email', 'completed', [failed('sendgrid'), sent('ses')], T0, 'ses'),
      outcome('in_app', 'completed', [], T0 + 1_450),
      outcome('sms', 'skipped', [{ status: 'Success', source: 'Internal', detail: 'skipped: preference sms disabled' }]),
      outcome('delay', 'completed', []),
    ]);
    now = T0 + HOUR;
    tally.recorded([outcome('email', 'failed', [failed('sendgrid')], T0, 'sendgrid')]);
    const counts = tally.drain().map((c) => [new Date(c.hour).toISOString().slice(11, 13), c.metric, c.channel, c.providerId, c.outcome, c.count].join(' '));
    expect(counts).toEqual([
      '10 delivery email ses sent 1',
      '10 delivery in_app none sent 1',
      '10 delivery sms none skipped 1',
      '10 lag email  2500 1',
      '10 lag in_app  100 1',
      '10 provider_failure email sendgrid  1',
      '10 trigger    2',
      '11 delivery email sendgrid failed 1',
      '11 provider_failure email sendgrid  1',
    ]);
    expect(tally.drain()).toEqual([]);
  });

  it('sums runs of one key and counts what comes after a drain in the next drain only', () => {
    const tally = new OverviewTally(() => T0 + 1_500);
    const batch = Array.from({ length: 3 }, () => outcome('in_app', 'completed', [], T0 + 1_450));
    tally.recorded(batch);
    tally.recorded([outcome('email', 'completed', [sent('ses')], T0, 'ses'), ...batch]);
    const first = tally.drain();
    const summary = (counts: typeof first) => counts.map((c) => `${c.metric} ${c.channel} ${c.outcome} ${c.count}`);
    expect(summary(first)).toEqual(['delivery email sent 1', 'delivery in_app sent 6', 'lag email 2500 1', 'lag in_app 100 6']);
    tally.recorded(batch);
    expect(summary(tally.drain())).toEqual(['delivery in_app sent 3', 'lag in_app 100 3']);
    expect(summary(first)).toEqual(['delivery email sent 1', 'delivery in_app sent 6', 'lag email 2500 1', 'lag in_app 100 6']);
  });

  it('measures no lag for a notification without a time-ordered id', () => {
    const tally = new OverviewTally(() => T0);
    const old = { ...outcome('email', 'completed', [sent('ses')]), job: { environmentId: 'env', notificationId: '3f2b8c1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', step: { type: 'email' } } as RunnableJob };
    tally.recorded([old]);
    expect(tally.drain().map((c) => c.metric)).toEqual(['delivery']);
  });
});

describe('FlushOverviewCounts and GetOverview', () => {
  it('keeps counts a failed flush could not store for the next one', async () => {
    const tally = new OverviewTally(() => T0);
    const rollup = new InMemoryOverview();
    const flush = new FlushOverviewCounts(tally, rollup);
    tally.triggered('env');
    rollup.failNext = true;
    await expect(flush.execute()).rejects.toThrow('connection lost');
    tally.triggered('env');
    expect(await flush.execute()).toBe(1);
    expect([...rollup.rows.values()][0].count).toBe(2);
    expect(await flush.execute()).toBe(0);
  });

  it('gives 24 hourly and 7 daily buckets, empty ones included, with lag percentiles from the histogram', async () => {
    const rollup = new InMemoryOverview();
    const add = (hoursAgo: number, metric: OverviewCount['metric'], channel: string, providerId: string, outcome: string, count: number) =>
      rollup.add([{ environmentId: 'env', hour: new Date(T0 - (T0 % HOUR) - hoursAgo * HOUR), metric, channel, providerId, outcome, count }]);
    await add(0, 'trigger', '', '', '', 5);
    await add(0, 'delivery', 'email', 'ses', 'sent', 3);
    await add(0, 'delivery', 'email', 'sendgrid', 'sent', 1);
    await add(0, 'lag', 'email', '', '250', 9);
    await add(0, 'lag', 'email', '', '1000', 1);
    await add(0, 'provider_failure', 'email', 'sendgrid', '', 2);
    await add(30, 'trigger', '', '', '', 7);
    await add(24 * 7 + 12, 'trigger', '', '', '', 100);
    await rollup.add([{ environmentId: 'other', hour: new Date(T0 - (T0 % HOUR)), metric: 'trigger', channel: '', providerId: '', outcome: '', count: 1 }]);

    const overview = await new GetOverview(rollup, { now: () => new Date(T0) }).execute('env');
    expect(overview.hourly).toHaveLength(24);
    expect(overview.hourly[0].start.toISOString()).toBe('2026-01-06T11:00:00.000Z');
    const current = overview.hourly[23];
    expect(current).toMatchObject({ triggers: 5, deliveries: [{ channel: 'email', outcome: 'sent', count: 4 }], providerFailures: [{ providerId: 'sendgrid', channel: 'email', count: 2 }] });
    expect(current.lag).toEqual({ count: 10, p50Ms: 183, p95Ms: 750 });
    expect(current.lagByChannel).toEqual([{ channel: 'email', count: 10, p50Ms: 183, p95Ms: 750 }]);
    expect(overview.hourly.slice(0, 23).every((b) => b.triggers === 0 && b.lag.p50Ms === null)).toBe(true);
    expect(overview.daily.map((d) => d.start.toISOString().slice(0, 10))).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07']);
    expect(overview.daily.map((d) => d.triggers)).toEqual([0, 0, 0, 0, 0, 7, 5]);
  });
});
