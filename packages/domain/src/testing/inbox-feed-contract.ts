import { describe, expect, it } from 'vitest';
import type { InboxFeed, InboxFeedEvent } from '../ports/inbox-feed';

/** Polls until `done` holds, up to `ms`; the feed delivers on its own time. */
export async function eventually(done: () => boolean, ms = 5_000, poke: () => void = () => undefined): Promise<void> {
  for (const start = Date.now(); !done() && Date.now() - start < ms; ) {
    poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(done()).toBe(true);
}

/** Every (environment, subscriber, job) a listener heard: events may come merged or split. */
function hearing(feed: InboxFeed) {
  const heard = new Set<string>();
  const stop = feed.subscribe((events) => {
    for (const e of events) for (const job of e.jobIds.length ? e.jobIds : ['-']) heard.add(`${e.environmentId}/${e.subscriberRef}/${job}`);
  });
  return { heard, stop };
}

const change = (subscriberRef: string, jobIds: string[]): InboxFeedEvent => ({ environmentId: 'env', subscriberRef, jobIds });

/**
 * The behaviour every InboxFeed has; run against the in-memory double and the PostgreSQL feed.
 * `processes` gives feeds of as many processes of one installation, started, with nobody present.
 */
export function inboxFeedContract(name: string, processes: (count: number) => Promise<InboxFeed[]>): void {
  describe(`InboxFeed contract: ${name}`, () => {
    it('is heard by no one while no process holds Inbox clients, and by every process while one does', async () => {
      const [a, b] = await processes(2);
      expect([a.heard(), b.heard()]).toEqual([false, false]);
      await a.setPresent(true);
      expect(a.heard()).toBe(true);
      await eventually(() => b.heard());
      await a.setPresent(false);
      // Every process notices as it goes on publishing (the one that left too: it may have heard itself arrive).
      for (const feed of [a, b]) await eventually(() => !feed.heard(), 5_000, () => feed.publish([change('poke', [])]));
    });

    it("carries what one process publishes to every process's listeners, itself included", async () => {
      const [a, b] = await processes(2);
      await a.setPresent(true);
      await eventually(() => b.heard());
      const [onA, onB] = [hearing(a), hearing(b)];
      b.publish([change('ada', ['j1', 'j2']), change('bob', [])]);
      const all = ['env/ada/j1', 'env/ada/j2', 'env/bob/-'];
      await eventually(() => all.every((x) => onA.heard.has(x) && onB.heard.has(x)));
      onA.stop();
      b.publish([change('cy', ['j3'])]);
      await eventually(() => onB.heard.has('env/cy/j3'));
      expect(onA.heard.has('env/cy/j3')).toBe(false);
    });

    it('delivers every job of a large change, however it splits it', async () => {
      const [a] = await processes(1);
      await a.setPresent(true);
      const on = hearing(a);
      const jobIds = Array.from({ length: 2_000 }, (_, i) => `job-${i}-${'x'.repeat(20)}`);
      a.publish([change('ada', jobIds), ...Array.from({ length: 300 }, (_, i) => change(`s${i}`, ['j']))]);
      await eventually(() => on.heard.size === 2_300);
    });

    it('never throws when publishing, heard or not', async () => {
      const [a] = await processes(1);
      expect(() => a.publish([])).not.toThrow();
      expect(() => a.publish([change('ada', ['j1'])])).not.toThrow();
    });
  });
}
