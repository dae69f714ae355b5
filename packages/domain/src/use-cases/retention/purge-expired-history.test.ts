import { describe, expect, it } from 'vitest';
import type { Environment } from '../../entities/tenancy';
import { NO_PURGE_COUNTS } from '../../entities/retention';
import { InMemoryRetentionRepository, type HistorySeed } from '../../testing/in-memory-retention-repository';
import { InMemoryTenancyRepository } from '../../testing/in-memory-tenancy-repository';
import { PurgeExpiredHistory, type PurgePace } from './purge-expired-history';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const DAY_MS = 86_400_000;
const daysAgo = (days: number, hours = 0) => new Date(NOW.getTime() - days * DAY_MS + hours * 3_600_000);

/** Real time as a counter: every reading moves it 1 ms on, a pause by its length. */
function fakePace(): PurgePace & { pauses: number[] } {
  let t = 0;
  const pauses: number[] = [];
  return {
    pauses,
    elapsedMs: () => t++,
    pause: async (ms) => {
      pauses.push(ms);
      t += ms;
    },
  };
}

async function setup(options: { batchSize?: number; pauseRatio?: number; devDays?: number } = {}) {
  const tenancy = new InMemoryTenancyRepository();
  const { environments } = await tenancy.bootstrap({ organizationName: 'o', environments: [{ name: 'Development', slug: 'development', signingSecret: 'a' }, { name: 'Production', slug: 'production', signingSecret: 'b' }] });
  const [dev, prod] = environments as [Environment, Environment];
  if (options.devDays) await tenancy.updateEnvironment(dev.id, { retentionDays: options.devDays });
  const history = new InMemoryRetentionRepository();
  const pace = fakePace();
  // The injected clock that decides what expired: NOW until a test moves it on.
  let now = NOW;
  const advance = (ms: number) => void (now = new Date(now.getTime() + ms));
  const purge = new PurgeExpiredHistory(tenancy, history, { defaultDays: 90, batchSize: options.batchSize ?? 100, pauseRatio: options.pauseRatio ?? 0 }, { now: () => now }, pace);
  const seed = (rows: Array<Omit<HistorySeed, 'environmentId'> & { in: Environment }>) => history.seed(rows.map(({ in: e, ...row }) => ({ ...row, environmentId: e.id })));
  return { dev, prod, history, purge, pace, seed, advance };
}

describe('PurgeExpiredHistory', () => {
  it("removes what is older than each environment's retention, with everything that belongs to it, and nothing younger", async () => {
    const { dev, prod, history, purge, seed } = await setup({ devDays: 30 });
    const [devOld, devYoung, prodOld, prodYoung] = await seed([
      { in: dev, createdAt: daysAgo(40), jobStatus: 'completed' },
      { in: dev, createdAt: daysAgo(29), jobStatus: 'completed' },
      { in: prod, createdAt: daysAgo(100), jobStatus: 'completed' },
      { in: prod, createdAt: daysAgo(40), jobStatus: 'completed' },
    ]);
    const report = await purge.execute();
    expect(report).toMatchObject({ finished: true, keeping: [], counts: { notifications: 2, jobs: 2, executionDetails: 2, messages: 4, digestWindows: 0, events: 2 } });
    expect(report.purged.sort()).toEqual(['development 2026-10-19', 'production 2026-08-20']);
    expect([await history.has(devOld), await history.has(devYoung), await history.has(prodOld), await history.has(prodYoung)]).toEqual([false, true, false, true]);
    expect(await history.left(dev.id)).toEqual({ ...NO_PURGE_COUNTS, notifications: 1, jobs: 1, executionDetails: 1, messages: 2, events: 1 });
  });

  it('removes outbound webhook events past the retention with their deliveries and attempts, and one still retrying once it is done', async () => {
    const { dev, prod, history, purge } = await setup({ devDays: 30 });
    const [, retrying] = await history.seedWebhookEvents([
      { environmentId: dev.id, createdAt: daysAgo(40), deliveries: ['succeeded', 'failed'], attempts: 3 },
      { environmentId: dev.id, createdAt: daysAgo(40, 1), deliveries: ['pending'] },
      { environmentId: dev.id, createdAt: daysAgo(29), deliveries: ['succeeded'] },
      { environmentId: prod.id, createdAt: daysAgo(40), deliveries: ['succeeded'] },
    ]);
    const first = await purge.execute();
    expect(first).toMatchObject({ finished: true, purged: [], keeping: [{ day: 'development 2026-10-19', kept: 1 }] });
    expect(first.counts).toEqual({ ...NO_PURGE_COUNTS, webhookEvents: 1, webhookDeliveries: 2, webhookAttempts: 6 });
    expect((await history.left(dev.id)).webhookEvents).toBe(2);
    await history.settleWebhookEvent(retrying);
    const second = await purge.execute();
    expect(second).toMatchObject({ purged: ['development 2026-10-19'], counts: { webhookEvents: 1, webhookDeliveries: 1, webhookAttempts: 1 } });
    expect((await history.left(dev.id)).webhookEvents).toBe(1);
    expect((await history.left(prod.id)).webhookEvents).toBe(1);
  });

  it('keeps a row at least its retention and removes it within the day after', async () => {
    const { history, purge, seed, prod, advance } = await setup();
    // The horizon day is 2026-08-30: its rows are older than 90 days only in part.
    const [lastPurged, firstKept, lastOfDay] = await seed([
      { in: prod, createdAt: new Date('2026-08-29T23:59:59.999Z') },
      { in: prod, createdAt: new Date('2026-08-30T00:00:00.000Z') },
      { in: prod, createdAt: new Date('2026-08-30T23:59:59.999Z') },
    ]);
    expect((await purge.execute()).purged).toEqual(['production 2026-08-29']);
    expect([await history.has(lastPurged), await history.has(firstKept)]).toEqual([false, true]);
    // Until 2026-11-29T00:00 the day's last row is younger than 90 days: the day is kept whole.
    advance(DAY_MS / 2 - 1);
    expect((await purge.execute()).purged).toEqual([]);
    // From then every row of it is older than 90 days: the whole day goes.
    advance(1);
    expect((await purge.execute()).purged).toEqual(['production 2026-08-30']);
    expect([await history.has(firstKept), await history.has(lastOfDay)]).toEqual([false, false]);
  });

  it('never removes a notification in flight; a later run removes it once finished and only then marks its day done', async () => {
    const { history, purge, seed, prod } = await setup();
    const [delayed, digested] = await seed([
      { in: prod, createdAt: daysAgo(120, -1), jobStatus: 'delayed' },
      { in: prod, createdAt: daysAgo(120, -2), jobStatus: 'merged', digest: { window: 'w', status: 'open', leads: false } },
      { in: prod, createdAt: daysAgo(120, -3), jobStatus: 'completed' },
    ]);
    const first = await purge.execute();
    expect(first).toMatchObject({ purged: [], keeping: [{ day: 'production 2026-07-31', kept: 4 }], counts: { notifications: 1, events: 1 } });
    expect(await purge.execute()).toMatchObject({ purged: [], keeping: [{ day: 'production 2026-07-31', kept: 4 }], counts: NO_PURGE_COUNTS });
    await history.settle(delayed);
    await history.settle(digested);
    const later = await purge.execute();
    expect(later).toMatchObject({ purged: ['production 2026-07-31'], keeping: [], counts: { notifications: 2, events: 2 } });
    const [record] = await history.days(prod.id, 1);
    expect(record).toMatchObject({ state: 'purged', counts: { notifications: 3, events: 3 } });
  });

  it('purges a day once: run again, or after its rows are restored, it removes and counts nothing more', async () => {
    const { history, purge, seed, prod, advance } = await setup();
    const rows = [0, 1, 2].map((i) => ({ in: prod, createdAt: daysAgo(100, i), jobStatus: 'completed' }));
    const ids = await seed(rows);
    expect((await purge.execute()).counts.notifications).toBe(3);
    expect(await purge.execute()).toMatchObject({ purged: [], counts: NO_PURGE_COUNTS, finished: true });
    // The day's backup restored a week later, when the day is even further past its retention.
    advance(7 * DAY_MS);
    await seed(rows.map((row, i) => ({ ...row, id: ids[i] })));
    expect(await purge.execute()).toMatchObject({ purged: [], counts: NO_PURGE_COUNTS });
    expect((await history.left(prod.id)).notifications).toBe(3);
    const [record] = await history.days(prod.id, 10);
    expect(record).toMatchObject({ state: 'purged', counts: { notifications: 3, jobs: 3, events: 3 } });
  });

  it('stops when its budget is spent and the next run goes on where it stopped, counting every row once', async () => {
    const { history, purge, seed, prod, dev } = await setup({ batchSize: 2 });
    await seed(Array.from({ length: 12 }, (_, i) => ({ in: i % 2 ? prod : dev, createdAt: daysAgo(100 + (i % 3), i), jobStatus: 'completed' })));
    const runs = [];
    for (let i = 0; i < 20; i++) {
      const report = await purge.execute({ budgetMs: 25 });
      runs.push(report);
      if (report.finished) break;
    }
    expect(runs.length).toBeGreaterThan(2);
    expect(runs.slice(0, -1).every((r) => !r.finished)).toBe(true);
    expect(runs.reduce((sum, r) => sum + r.counts.notifications, 0)).toBe(12);
    expect(runs.flatMap((r) => r.purged).sort()).toEqual(
      ['development 2026-08-18', 'development 2026-08-19', 'development 2026-08-20', 'production 2026-08-18', 'production 2026-08-19', 'production 2026-08-20'],
    );
    expect([(await history.left(dev.id)).notifications, (await history.left(prod.id)).notifications]).toEqual([0, 0]);
  });

  it('lets environments take turns a day each, oldest days first', async () => {
    const { purge, seed, prod, dev } = await setup();
    await seed([
      { in: dev, createdAt: daysAgo(102) },
      { in: dev, createdAt: daysAgo(101) },
      { in: prod, createdAt: daysAgo(101) },
      { in: prod, createdAt: daysAgo(100) },
    ]);
    expect((await purge.execute()).purged).toEqual(['development 2026-08-18', 'production 2026-08-19', 'development 2026-08-19', 'production 2026-08-20']);
  });

  it('waits after each batch its time times pauseRatio, so it holds the database at most half the time at 1', async () => {
    const { purge, seed, prod, pace } = await setup({ batchSize: 2, pauseRatio: 1 });
    await seed(Array.from({ length: 5 }, (_, i) => ({ in: prod, createdAt: daysAgo(100, i) })));
    await purge.execute();
    // Every batch that looked at rows took 1 ms on the fake clock, and was followed by a 1 ms pause.
    expect(pace.pauses.length).toBeGreaterThanOrEqual(4);
    expect(pace.pauses.every((ms) => ms === 1)).toBe(true);
  });
});
