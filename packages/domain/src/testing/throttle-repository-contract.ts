import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ThrottleEntry, ThrottleRepository } from '../ports/throttle-repository';

const HOUR = 3_600_000;

/** A job counted into the hour-long window starting at `windowStart`; `like` shares its subscriber, workflow and key. */
function entry(windowStart: Date, like?: Partial<ThrottleEntry>): ThrottleEntry {
  return {
    jobId: randomUUID(),
    environmentId: like?.environmentId ?? randomUUID(),
    workflowId: like?.workflowId ?? randomUUID(),
    subscriberId: like?.subscriberId ?? randomUUID(),
    throttleKey: like?.throttleKey ?? '',
    windowStart,
    windowEnd: new Date(windowStart.getTime() + HOUR),
  };
}

/**
 * The behaviour every ThrottleRepository has; run against the in-memory double and the SQL adapter.
 * `setup` may share its store between tests: each test counts its own subscribers.
 */
export function throttleRepositoryContract(name: string, setup: () => Promise<ThrottleRepository>): void {
  describe(`ThrottleRepository contract: ${name}`, () => {
    const now = () => new Date(Math.floor(Date.now() / HOUR) * HOUR);

    it('places each job in its window in entry order from 1; other subscribers, workflows, keys and windows count apart', async () => {
      const repo = await setup();
      const a = entry(now());
      const places = await repo.admit([
        a,
        entry(now(), a),
        entry(now(), { ...a, subscriberId: randomUUID() }),
        entry(now(), { ...a, workflowId: randomUUID() }),
        entry(now(), { ...a, throttleKey: 'k' }),
        entry(new Date(now().getTime() + HOUR), a),
        entry(now(), a),
      ]);
      expect(places).toEqual([1, 2, 1, 1, 1, 1, 3]);
      expect(await repo.admit([entry(now(), a), entry(now(), { ...a, throttleKey: 'k' })])).toEqual([4, 2]);
      expect(await repo.admit([])).toEqual([]);
    });

    it('keeps the place of a job counted before, alone or among new ones', async () => {
      const repo = await setup();
      const first = entry(now());
      const second = entry(now(), first);
      await repo.admit([first, second]);
      expect(await repo.admit([second])).toEqual([2]);
      expect(await repo.admit([entry(now(), first), first, second])).toEqual([3, 1, 2]);
    });

    it('gives concurrent counts of one window distinct places', async () => {
      const repo = await setup();
      const like = entry(now());
      const places = await Promise.all(Array.from({ length: 20 }, () => repo.admit([entry(now(), like), entry(now(), like)])));
      expect(places.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('purges closed windows (their count starts again) and old admissions (their jobs are counted anew)', async () => {
      const repo = await setup();
      const longAgo = new Date(Date.UTC(2000, 0, 1));
      const old = entry(longAgo);
      const current = entry(now());
      expect(await repo.admit([old, entry(longAgo, old), current])).toEqual([1, 2, 1]);
      // Windows closed before 2001 go; admissions made before the start of 2000 (none) stay.
      expect(await repo.purge(new Date(Date.UTC(2001, 0, 1)), longAgo)).toBeGreaterThanOrEqual(1);
      expect(await repo.admit([entry(longAgo, old), entry(now(), current)])).toEqual([1, 2]);
      expect(await repo.admit([current])).toEqual([1]);
      // Every admission made until a minute from now goes: a job counted again takes a new place.
      expect(await repo.purge(longAgo, new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(4);
      expect(await repo.admit([current])).toEqual([3]);
    });
  });
}
