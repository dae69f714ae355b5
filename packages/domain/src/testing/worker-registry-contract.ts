import { describe, expect, it } from 'vitest';
import type { JobRepository } from '../ports/job-repository';
import type { WorkerRegistry } from '../ports/worker-registry';

/** A worker process: its registry and its view of the jobs (leases in its name). */
export interface WorkerProcess {
  registry: WorkerRegistry;
  jobs: JobRepository;
}

export interface WorkerRegistryFixture {
  /** A process that joined. Whatever a test starts leaves when the test ends. */
  process(): Promise<WorkerProcess>;
  /** A process that joined, then died without leaving (killed, its host lost). */
  crashed(process: WorkerProcess): Promise<void>;
  /** A new notification whose first step has side effects (leased when claimed); its id. */
  leasedWork(): Promise<string>;
}

/** The behaviour every WorkerRegistry has; run against the in-memory double and the SQL registry. */
export function workerRegistryContract(name: string, setup: () => Promise<WorkerRegistryFixture>): void {
  describe(`WorkerRegistry contract: ${name}`, () => {
    it('counts the other registered processes; one that left is neither counted nor taken over', async () => {
      const fixture = await setup();
      const a = await fixture.process();
      expect(await a.registry.recoverDead()).toEqual({ workers: 0, events: 0, notifications: 0, others: 0 });
      const b = await fixture.process();
      expect((await a.registry.recoverDead()).others).toBe(1);
      expect((await b.registry.recoverDead()).others).toBe(1);
      expect(a.registry.workerId).not.toBe(b.registry.workerId);
      await b.registry.leave();
      expect(await a.registry.recoverDead()).toEqual({ workers: 0, events: 0, notifications: 0, others: 0 });
    });

    it('takes a dead process over exactly once, however many notice it at the same time', async () => {
      const fixture = await setup();
      const [a, b, doomed] = [await fixture.process(), await fixture.process(), await fixture.process()];
      await fixture.crashed(doomed);
      const results = await Promise.all([a.registry.recoverDead(), b.registry.recoverDead(), a.registry.recoverDead()]);
      expect(results.map((r) => r.workers).sort()).toEqual([0, 0, 1]);
      expect(results.find((r) => r.workers === 1)!.others).toBe(1);
      expect(await a.registry.recoverDead()).toMatchObject({ workers: 0, others: 1 });
    });

    it("ends a dead process's leases at once: its jobs are due again for the others, with every other due job", async () => {
      const fixture = await setup();
      const [alive, doomed] = [await fixture.process(), await fixture.process()];
      const [held, waiting] = [await fixture.leasedWork(), await fixture.leasedWork()];
      const [leased] = await doomed.jobs.claim([held]);
      expect(leased.leased).toBe(true);
      expect(await alive.jobs.claim([held])).toEqual([]);
      await fixture.crashed(doomed);
      const taken = await alive.registry.recoverDead();
      expect(taken).toMatchObject({ workers: 1, events: 0 });
      expect(taken.notifications).toBeGreaterThanOrEqual(2);
      const again = await alive.jobs.claim([held, waiting]);
      expect(again.map((j) => [j.notificationId, j.attempts]).sort()).toEqual([[held, 2], [waiting, 1]].sort());
    });
  });
}
