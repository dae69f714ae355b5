import { describe, expect, it } from 'vitest';
import type { DeliveryQueue, DeliveryWorkHandlers } from '../ports/delivery-queue';
import { eventually } from './inbox-feed-contract';

export interface DeliveryQueueFixture {
  /** Consumers of one installation's queue, as many processes; each is stopped when the test ends. */
  processes(count: number): Promise<DeliveryQueue[]>;
  /** Commits work as the repositories do: topic fan-outs of these events, steps of these notifications. */
  enqueue(work: { fanout?: string[]; steps?: string[] }): Promise<void>;
}

/** Handlers that record every id they were handed, per kind and per process. */
function recorder() {
  const seen = { fanout: [] as string[], steps: [] as string[] };
  const handlers: DeliveryWorkHandlers = {
    fanout: async (ids) => void seen.fanout.push(...ids),
    steps: async (ids) => void seen.steps.push(...ids),
  };
  return { seen, handlers };
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}-${Math.random().toString(36).slice(2)}`);
const sorted = (list: string[]) => [...list].sort();

/** The behaviour every DeliveryQueue has; run against the in-memory double and pg-boss. */
export function deliveryQueueContract(name: string, setup: () => Promise<DeliveryQueueFixture>): void {
  describe(`DeliveryQueue contract: ${name}`, () => {
    it('hands fan-out work and step work to their handlers', async () => {
      const fixture = await setup();
      const [queue] = await fixture.processes(1);
      const { seen, handlers } = recorder();
      await queue.consume(handlers);
      const [events, notifications] = [ids('event', 3), ids('notification', 5)];
      await fixture.enqueue({ fanout: events, steps: notifications });
      await eventually(() => seen.fanout.length === 3 && seen.steps.length === 5, 15_000);
      expect([sorted(seen.fanout), sorted(seen.steps)]).toEqual([sorted(events), sorted(notifications)]);
    });

    it('retries the work of a handler that throws', async () => {
      const fixture = await setup();
      const [queue] = await fixture.processes(1);
      const attempts: string[][] = [];
      await queue.consume({
        fanout: async () => undefined,
        steps: async (handed) => {
          attempts.push(handed);
          if (attempts.length === 1) throw new Error('database unavailable');
        },
      });
      const notifications = ids('retried', 2);
      await fixture.enqueue({ steps: notifications });
      await eventually(() => attempts.length >= 2, 20_000);
      expect(attempts.slice(0, 2).map(sorted)).toEqual([sorted(notifications), sorted(notifications)]);
    });

    it('hands each unit of work to one consumer of the processes consuming', async () => {
      const fixture = await setup();
      const queues = await fixture.processes(2);
      const recorders = queues.map(() => recorder());
      for (const [i, queue] of queues.entries()) await queue.consume(recorders[i].handlers);
      const events = ids('shared', 12);
      await fixture.enqueue({ fanout: events });
      const handled = () => recorders.flatMap((r) => r.seen.fanout);
      await eventually(() => handled().length >= 12, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sorted(handled())).toEqual(sorted(events));
    });

    it('hands a stopped process no more work; the others take it', async () => {
      const fixture = await setup();
      const [stopped, running] = await fixture.processes(2);
      const [a, b] = [recorder(), recorder()];
      await stopped.consume(a.handlers);
      await running.consume(b.handlers);
      await stopped.stop();
      const events = ids('after-stop', 5);
      await fixture.enqueue({ fanout: events });
      await eventually(() => b.seen.fanout.length === 5, 15_000);
      expect(a.seen.fanout).toEqual([]);
    });
  });
}
