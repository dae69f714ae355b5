import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../entities/delivery';
import type { DigestEntry, DigestPlace, DigestRepository } from '../ports/digest-repository';

/** A job reaching a digest step, as delivery wrote it: its subscriber and step by name, its trigger. */
export interface DigestJobSeed {
  subscriber: string;
  step: string;
  transactionId: string;
  payload: JsonObject;
  createdAt: Date;
}

export interface DigestRepositoryFixture {
  repo: DigestRepository;
  /** Writes the job and its notification; the ids a DigestEntry names (same name, same subscriber or step row). */
  digestJob(seed: DigestJobSeed): Promise<Pick<DigestEntry, 'jobId' | 'notificationId' | 'environmentId' | 'subscriberId' | 'workflowStepId'>>;
}

const T0 = Date.UTC(2030, 0, 1);
const minute = (n: number) => new Date(T0 + n * 60_000);
const inAnHour = () => new Date(Date.now() + 3_600_000);
const roleOf = (p: DigestPlace) => (p.role === 'member' ? 'member' : p.status);

/** The behaviour every DigestRepository has; run against the in-memory double and the SQL adapter. */
export function digestRepositoryContract(name: string, setup: () => Promise<DigestRepositoryFixture>): void {
  describe(`DigestRepository contract: ${name}`, () => {
    let n = 0;
    const job = async (fixture: DigestRepositoryFixture, subscriber: string, extra: Partial<DigestEntry> & { step?: string; at?: number } = {}): Promise<DigestEntry> => {
      const { step = 'digest', at = ++n, ...rest } = extra;
      const ids = await fixture.digestJob({ subscriber, step, transactionId: `t-${subscriber}-${at}-${Math.random()}`, payload: { at }, createdAt: minute(at) });
      return { ...ids, digestKey: '', closesAt: inAnHour(), backoffSince: null, metadata: { type: 'regular' }, ...rest };
    };

    it('opens one digest per subscriber, step and key, led by its first job; later jobs join it', async () => {
      const fixture = await setup();
      const first = await job(fixture, 'ada');
      const places = await fixture.repo.enter([first, await job(fixture, 'ada'), await job(fixture, 'ada', { digestKey: 'k' }), await job(fixture, 'bob'), await job(fixture, 'ada', { step: 'other' })]);
      expect(places.map(roleOf)).toEqual(['open', 'member', 'open', 'open', 'open']);
      expect(places[1]).toEqual({ role: 'member', digestId: places[0].digestId, leaderNotificationId: first.notificationId });
      expect(new Set(places.map((p) => p.digestId)).size).toBe(4);
      expect(places[0]).toMatchObject({ closesAt: first.closesAt });
      const later = await fixture.repo.enter([await job(fixture, 'ada')]);
      expect(later).toEqual([{ role: 'member', digestId: places[0].digestId, leaderNotificationId: first.notificationId }]);
    });

    it('keeps a placed job where it is when it enters again', async () => {
      const fixture = await setup();
      const [leader, member] = [await job(fixture, 'ada'), await job(fixture, 'ada')];
      const places = await fixture.repo.enter([leader, member]);
      expect(await fixture.repo.enter([member, leader])).toEqual([places[1], places[0]]);
    });

    it("closes a due digest when its leader enters, with every event oldest first; the key's next job opens the next one", async () => {
      const fixture = await setup();
      const closesAt = new Date(Date.now() + 300);
      const leader = await job(fixture, 'ada', { closesAt, at: 2 });
      const early = await job(fixture, 'ada', { at: 1 });
      const late = await job(fixture, 'ada', { at: 3 });
      const [opened] = await fixture.repo.enter([leader, late, early]);
      expect(opened).toMatchObject({ role: 'leader', status: 'open' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const [closed] = await fixture.repo.enter([leader]);
      if (closed.role !== 'leader' || closed.status !== 'closed') throw new Error(`expected a closed digest, got ${JSON.stringify(closed)}`);
      expect(closed.digestId).toBe(opened.digestId);
      expect(closed.events.map((e) => [e.id, e.transactionId, new Date(e.time).getTime(), e.payload])).toEqual(
        [early, leader, late].map((j, i) => [j.notificationId, expect.any(String), minute(i + 1).getTime(), { at: i + 1 }]),
      );
      const next = await job(fixture, 'ada');
      const [reopened] = await fixture.repo.enter([next]);
      expect(reopened).toMatchObject({ role: 'leader', status: 'open' });
      expect(reopened.digestId).not.toBe(opened.digestId);
      expect(await fixture.repo.enter([leader])).toEqual([closed]);
    });

    it('closes a backoff digest at once unless an event of its key came after the backoff start', async () => {
      const fixture = await setup();
      const since = new Date(Date.now() - 60_000);
      const [lone] = await fixture.repo.enter([await job(fixture, 'ada', { backoffSince: since })]);
      if (lone.role !== 'leader' || lone.status !== 'closed') throw new Error(`expected a closed digest, got ${JSON.stringify(lone)}`);
      expect(lone.events).toHaveLength(1);
      // That event came after the next job's backoff start: the next digest waits its full window.
      const [waits] = await fixture.repo.enter([await job(fixture, 'ada', { backoffSince: since })]);
      expect(waits).toMatchObject({ role: 'leader', status: 'open' });
    });

    it('puts every one of many concurrent jobs of a key in exactly one digest, with one leader', async () => {
      const fixture = await setup();
      const jobs = await Promise.all(Array.from({ length: 20 }, () => job(fixture, 'ada')));
      const places = (await Promise.all(jobs.map((j, i) => fixture.repo.enter(i % 2 ? [j] : [j, jobs[(i + 1) % 20]])))).map((p) => p[0]);
      expect(new Set(places.map((p) => p.digestId)).size).toBe(1);
      expect(places.filter((p) => p.role === 'leader')).toHaveLength(1);
    });
  });
}
