import { describe, expect, it } from 'vitest';
import { NO_PURGE_COUNTS, type PurgeCounts } from '../entities/retention';
import type { RetentionRepository } from '../ports/retention-repository';
import type { HistoryLeft, HistorySeed, WebhookHistorySeed } from './in-memory-retention-repository';

/** A repository over history a test seeds, in two environments no other test writes to. */
export interface RetentionFixture {
  repo: RetentionRepository;
  environments: [string, string];
  /** Adds history; ids in order. A row given the id of one removed is put back (a restore). */
  seed(rows: HistorySeed[]): Promise<string[]>;
  /** Adds outbound webhook events with their deliveries and attempts; ids in order. */
  seedWebhookEvents(rows: WebhookHistorySeed[]): Promise<string[]>;
  /** The webhook event's pending deliveries succeed. */
  settleWebhookEvent(id: string): Promise<void>;
  /** Ends what kept the notification in flight (see InMemoryRetentionRepository.settle). */
  settle(notificationId: string): Promise<void>;
  left(environmentId: string): Promise<HistoryLeft>;
  has(notificationId: string): Promise<boolean>;
}

const DAY = new Date('2026-08-01T00:00:00.000Z');
const NOW = new Date('2026-11-28T12:00:00.000Z');
const at = (days: number, hours = 0) => new Date(DAY.getTime() + days * 86_400_000 + hours * 3_600_000);
const counts = (c: Partial<PurgeCounts>): PurgeCounts => ({ ...NO_PURGE_COUNTS, ...c });

/** The RetentionRepository contract, run against the in-memory double and the SQL adapter. */
export function retentionRepositoryContract(name: string, setup: () => Promise<RetentionFixture>) {
  describe(`RetentionRepository contract: ${name}`, () => {
    it('removes a day of notifications with their jobs, details, messages and the closed digests they led, counting each', async () => {
      const { repo, environments: [a, b], seed, left } = await setup();
      await seed([
        { environmentId: a, createdAt: at(0, 1), jobStatus: 'completed' },
        { environmentId: a, createdAt: at(0, 2) },
        { environmentId: a, createdAt: at(0, 3), jobStatus: 'completed', digest: { window: 'w', status: 'closed', leads: true } },
        { environmentId: a, createdAt: at(0, 4), jobStatus: 'merged', digest: { window: 'w', status: 'closed', leads: false } },
        { environmentId: a, createdAt: at(1, 0), jobStatus: 'completed' },
        { environmentId: b, createdAt: at(0, 1), jobStatus: 'completed' },
      ]);
      const before = await left(b);
      const batch = await repo.purge('notifications', a, DAY, 100, NOW);
      expect(batch).toEqual({ counts: counts({ notifications: 4, jobs: 3, executionDetails: 3, messages: 7, digestWindows: 1 }), scanned: 4, kept: 0 });
      expect(await left(a)).toEqual(counts({ notifications: 1, jobs: 1, executionDetails: 1, messages: 2, events: 5 }));
      expect(await repo.purge('events', a, DAY, 100, NOW)).toEqual({ counts: counts({ events: 4 }), scanned: 4, kept: 0 });
      expect(await left(a)).toEqual(counts({ notifications: 1, jobs: 1, executionDetails: 1, messages: 2, events: 1 }));
      expect(await left(b)).toEqual(before);
      const record = await repo.closeDay(a, DAY, NOW);
      expect(record).toMatchObject({ environmentId: a, day: DAY, state: 'purged', kept: 0, purgedAt: NOW });
      expect(record.counts).toEqual(counts({ notifications: 4, jobs: 3, executionDetails: 3, messages: 7, digestWindows: 1, events: 4 }));
    });

    it('keeps notifications in flight and their events, and removes them on a recheck once they finished', async () => {
      const { repo, environments: [a], seed, settle, left, has } = await setup();
      const held = await seed([
        { environmentId: a, createdAt: at(0, 1), jobStatus: 'delayed' },
        { environmentId: a, createdAt: at(0, 2), jobStatus: 'queued' },
        { environmentId: a, createdAt: at(0, 3), jobStatus: 'pending' },
        { environmentId: a, createdAt: at(0, 4), jobStatus: 'running' },
        { environmentId: a, createdAt: at(0, 5), jobStatus: 'delayed', digest: { window: 'open', status: 'open', leads: true } },
        { environmentId: a, createdAt: at(0, 6), jobStatus: 'merged', digest: { window: 'open', status: 'open', leads: false } },
        { environmentId: a, createdAt: at(0, 7), snoozedUntil: new Date(NOW.getTime() + 60_000) },
        { environmentId: a, createdAt: at(0, 8), eventStatus: 'fanning_out' },
      ]);
      const [finished] = await seed([{ environmentId: a, createdAt: at(0, 9), snoozedUntil: new Date(NOW.getTime() - 60_000) }]);
      expect(await repo.purge('notifications', a, DAY, 100, NOW)).toEqual({ counts: counts({ notifications: 1, messages: 1 }), scanned: 9, kept: 8 });
      expect(await repo.purge('events', a, DAY, 100, NOW)).toEqual({ counts: counts({ events: 1 }), scanned: 9, kept: 8 });
      expect(await has(finished)).toBe(false);
      for (const id of held) expect(await has(id)).toBe(true);
      expect(await repo.closeDay(a, DAY, NOW)).toMatchObject({ state: 'purging', kept: 16, purgedAt: null });
      // Nothing finished yet: a recheck keeps them all.
      expect(await repo.recheck('notifications', a, DAY, null, 100, NOW)).toMatchObject({ counts: NO_PURGE_COUNTS, scanned: 8, kept: 8 });
      for (const id of held.slice(0, 4)) await settle(id);
      const first = await repo.recheck('notifications', a, DAY, null, 3, NOW);
      const second = await repo.recheck('notifications', a, DAY, first.last, 100, NOW);
      expect([first.scanned, second.scanned]).toEqual([3, 5]);
      expect(first.counts.notifications + second.counts.notifications).toBe(4);
      for (const id of held.slice(4)) await settle(id);
      expect((await repo.recheck('notifications', a, DAY, null, 100, NOW)).counts).toEqual(counts({ notifications: 4, jobs: 2, executionDetails: 2, messages: 6, digestWindows: 1 }));
      expect((await repo.recheck('events', a, DAY, null, 100, NOW)).counts).toEqual(counts({ events: 8 }));
      expect(await left(a)).toEqual(NO_PURGE_COUNTS);
      const record = await repo.closeDay(a, DAY, NOW);
      expect(record).toMatchObject({ state: 'purged', kept: 0 });
      expect(record.counts).toEqual(counts({ notifications: 9, jobs: 6, executionDetails: 6, messages: 15, digestWindows: 1, events: 9 }));
    });

    it('goes on where the last batch stopped; rows put back behind it, or into a day done, are neither removed nor counted again', async () => {
      const { repo, environments: [a], seed, left } = await setup();
      const rows = (await seed(Array.from({ length: 5 }, (_, i) => ({ environmentId: a, createdAt: at(0, i), jobStatus: 'completed' })))).map((id, i) => ({
        id,
        environmentId: a,
        createdAt: at(0, i),
        jobStatus: 'completed',
      }));
      const scanned = [];
      for (let i = 0; i < 3; i++) scanned.push((await repo.purge('notifications', a, DAY, 2, NOW)).scanned);
      expect(scanned).toEqual([2, 2, 1]);
      expect(await repo.purge('events', a, DAY, 100, NOW)).toMatchObject({ counts: counts({ events: 5 }), scanned: 5 });
      // A restore of the first three (with their events) behind both passes: they stay, uncounted.
      await seed(rows.slice(0, 3));
      expect(await repo.purge('notifications', a, DAY, 2, NOW)).toEqual({ counts: NO_PURGE_COUNTS, scanned: 0, kept: 0 });
      expect(await repo.purge('events', a, DAY, 2, NOW)).toEqual({ counts: NO_PURGE_COUNTS, scanned: 0, kept: 0 });
      const done = counts({ notifications: 5, jobs: 5, executionDetails: 5, messages: 10, events: 5 });
      expect(await repo.closeDay(a, DAY, NOW)).toMatchObject({ state: 'purged', counts: done });
      // The day is done: the restored rows and a later restore of the rest are left alone.
      await seed(rows.slice(3));
      expect(await repo.purge('notifications', a, DAY, 100, NOW)).toEqual({ counts: NO_PURGE_COUNTS, scanned: 0, kept: 0 });
      expect(await repo.recheck('notifications', a, DAY, null, 100, NOW)).toMatchObject({ counts: NO_PURGE_COUNTS, scanned: 0 });
      expect(await left(a)).toEqual(counts({ notifications: 5, jobs: 5, executionDetails: 5, messages: 10, events: 5 }));
      const [record] = await repo.days(a, 10);
      expect(record).toMatchObject({ state: 'purged', counts: done });
    });

    it('removes webhook events with their deliveries and attempts once none is pending, and keeps the others until then', async () => {
      const { repo, environments: [a, b], seedWebhookEvents, settleWebhookEvent, left } = await setup();
      const [, retrying, unsent] = await seedWebhookEvents([
        { environmentId: a, createdAt: at(0, 1), deliveries: ['succeeded', 'failed'], attempts: 2 },
        { environmentId: a, createdAt: at(0, 2), deliveries: ['succeeded', 'pending'] },
        { environmentId: a, createdAt: at(0, 3), deliveries: ['pending'], attempts: 0 },
        { environmentId: a, createdAt: at(1, 0), deliveries: ['succeeded'] },
        { environmentId: b, createdAt: at(0, 1), deliveries: ['succeeded'] },
      ]);
      expect(await repo.oldestDay(a, null, at(5))).toEqual(DAY);
      expect(await repo.purge('webhook_events', a, DAY, 100, NOW)).toEqual({
        counts: counts({ webhookEvents: 1, webhookDeliveries: 2, webhookAttempts: 4 }),
        scanned: 3,
        kept: 2,
      });
      expect(await left(a)).toEqual(counts({ webhookEvents: 3, webhookDeliveries: 4, webhookAttempts: 3 }));
      expect(await left(b)).toEqual(counts({ webhookEvents: 1, webhookDeliveries: 1, webhookAttempts: 1 }));
      expect(await repo.closeDay(a, DAY, NOW)).toMatchObject({ state: 'purging', kept: 2 });
      await settleWebhookEvent(retrying);
      expect((await repo.recheck('webhook_events', a, DAY, null, 100, NOW)).counts).toEqual(counts({ webhookEvents: 1, webhookDeliveries: 2, webhookAttempts: 2 }));
      await settleWebhookEvent(unsent);
      expect(await repo.recheck('webhook_events', a, DAY, null, 100, NOW)).toMatchObject({ counts: counts({ webhookEvents: 1, webhookDeliveries: 1 }), scanned: 1, kept: 0 });
      const record = await repo.closeDay(a, DAY, NOW);
      expect(record).toMatchObject({ state: 'purged', kept: 0 });
      expect(record.counts).toEqual(counts({ webhookEvents: 3, webhookDeliveries: 5, webhookAttempts: 6 }));
      expect(await left(a)).toEqual(counts({ webhookEvents: 1, webhookDeliveries: 1, webhookAttempts: 1 }));
    });

    it('counts each row once when batches of one day run at the same time', async () => {
      const { repo, environments: [a], seed, left } = await setup();
      await seed(Array.from({ length: 30 }, (_, i) => ({ environmentId: a, createdAt: at(0, i / 2), jobStatus: 'completed' })));
      const batches = await Promise.all(Array.from({ length: 5 }, () => repo.purge('notifications', a, DAY, 10, NOW)));
      const more = await repo.purge('notifications', a, DAY, 10, NOW);
      expect(batches.reduce((sum, b) => sum + b.counts.notifications, more.counts.notifications)).toBe(30);
      expect((await left(a)).notifications).toBe(0);
      expect((await repo.closeDay(a, DAY, NOW)).counts.notifications).toBe(30);
    });

    it('finds the oldest day with history and reports days begun and done', async () => {
      const { repo, environments: [a, b], seed } = await setup();
      await seed([
        { environmentId: a, createdAt: at(0, 23) },
        { environmentId: a, createdAt: at(2, 5) },
      ]);
      expect(await repo.oldestDay(a, null, at(5))).toEqual(DAY);
      expect(await repo.oldestDay(a, at(1), at(5))).toEqual(at(2));
      expect(await repo.oldestDay(a, null, at(0, 23))).toBeNull();
      expect(await repo.oldestDay(b, null, at(5))).toBeNull();
      expect(await repo.progress(a)).toEqual({ open: [], latest: null });
      await repo.purge('notifications', a, at(2), 100, NOW);
      expect(await repo.progress(a)).toEqual({ open: [at(2)], latest: at(2) });
      await repo.purge('notifications', a, DAY, 100, NOW);
      await repo.purge('events', a, DAY, 100, NOW);
      await repo.closeDay(a, DAY, NOW);
      expect(await repo.progress(a)).toEqual({ open: [at(2)], latest: at(2) });
      expect((await repo.days(a, 10)).map((d) => [d.day, d.state])).toEqual([[at(2), 'purging'], [DAY, 'purged']]);
      expect(await repo.days(b, 10)).toEqual([]);
    });
  });
}
