import { RecoverDeadWorkers, WorkerRegistry } from '@herald/domain';
import type { Logger } from 'pino';
import type { Resolver } from './platform/app-env';

/** How often each worker process asks whether another has died: one indexed read of a few rows. */
export const DEAD_WORKER_CHECK_MS = 1_000;

/**
 * Registers this process as a worker, takes over the work of processes that died before it
 * started, and keeps watching for deaths. Returns what stops the watch and deregisters, in that order
 * of use: `stop()` at once on shutdown, `leave()` once this process's workers have finished.
 */
export async function watchForDeadWorkers(resolver: Resolver, logger: Logger): Promise<{ stop(): void; leave(): Promise<void> }> {
  const registry = resolver.get<WorkerRegistry>(WorkerRegistry);
  await registry.join();
  const recover = resolver.get(RecoverDeadWorkers);
  const run = async () => {
    const recovered = await recover.execute();
    if (recovered.workers) logger.warn({ ...recovered }, 'took over the work of worker processes that died');
  };
  await run();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    run()
      .catch((err) => logger.error({ err }, 'checking for dead worker processes failed'))
      .finally(() => (running = false));
  }, DEAD_WORKER_CHECK_MS).unref();
  return {
    stop: () => clearInterval(timer),
    leave: () => registry.leave(),
  };
}
