import { RecoverDeadWorkers, WorkerRegistry } from '@herald/domain';
import type { Logger } from 'pino';
import type { Resolver } from './platform/app-env';

/** How often each worker process asks whether another has died, while others are registered. */
export const DEAD_WORKER_CHECK_MS = 1_000;
/**
 * How often while no other is registered (a single-process install, most of them): only a process
 * that registers after the last check can die unnoticed, and it is noticed at the next check, so its
 * work is still taken over within about 2 s (the takeover promise, test/delivery-crash.e2e, is 5 s).
 * An idle service spent a quarter of its queries on checking every second.
 */
export const ALONE_CHECK_MS = 2_000;

/**
 * Registers this process as a worker, takes over the work of processes that died before it
 * started, and keeps watching for deaths. Returns what stops the watch and deregisters, in that order
 * of use: `stop()` at once on shutdown, `leave()` once this process's workers have finished.
 */
export async function watchForDeadWorkers(resolver: Resolver, logger: Logger): Promise<{ stop(): void; leave(): Promise<void> }> {
  const registry = resolver.get<WorkerRegistry>(WorkerRegistry);
  await registry.join();
  const recover = resolver.get(RecoverDeadWorkers);
  /** Resolves to how many other processes are registered (1 if the check failed: keep checking often). */
  const run = async (): Promise<number> => {
    const recovered = await recover.execute();
    if (recovered.workers) logger.warn({ ...recovered }, 'took over the work of worker processes that died');
    return recovered.others;
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** The check running now, if any: leaving waits for it, so it never runs on a deregistered process. */
  let running: Promise<void> | undefined;
  const check = (): Promise<void> =>
    (running = run()
      .catch((err) => (logger.error({ err }, 'checking for dead worker processes failed'), 1))
      .then((others) => {
        running = undefined;
        // A failed first check does not fail the start: the next one, a second later, tries again.
        if (!stopped) timer = setTimeout(() => void check(), others ? DEAD_WORKER_CHECK_MS : ALONE_CHECK_MS).unref();
      }));
  await check();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    leave: async () => {
      await running;
      await registry.leave();
    },
  };
}
