import type { RecoveredWork, WorkerRegistry } from '../../ports/worker-registry';

/**
 * A crashed process's work resumes in seconds, not after its leases lapse: every worker process
 * asks, once a second (every 2 s while no other is registered), whether another has died, and
 * queues the dead one's work again.
 * RecoverStalledWork stays the fallback for what no owner was recorded for.
 */
export class RecoverDeadWorkers {
  constructor(private readonly registry: WorkerRegistry) {}

  execute(): Promise<RecoveredWork> {
    return this.registry.recoverDead();
  }
}
