import { randomUUID } from 'node:crypto';
import type { RecoveredWork, WorkerRegistry } from '../ports/worker-registry';
import type { InMemoryJobRepository } from './in-memory-job-repository';

/** The worker processes registered in one installation; `alive` goes false when one dies without leaving. */
export class InMemoryWorkerCluster {
  readonly processes = new Map<string, { alive: boolean }>();
}

/**
 * The WorkerRegistry double: processes of one cluster over the shared job double. A test kills a
 * process with `crash()` (it stays registered, dead); `recoverDead` takes each dead process over
 * once, ending its leases and counting due work, as the SQL registry does. It has no fan-outs to
 * resume (no EventRepository double; see docs/swap-an-adapter.md). `worker-registry-contract.ts`
 * holds it to the SQL registry's behaviour.
 */
export class InMemoryWorkerRegistry implements WorkerRegistry {
  constructor(
    private readonly cluster: InMemoryWorkerCluster,
    private readonly jobs: InMemoryJobRepository,
    readonly workerId: string = randomUUID(),
    private readonly now: () => Date = () => new Date(),
  ) {}

  async join(): Promise<void> {
    this.cluster.processes.set(this.workerId, { alive: true });
  }

  async leave(): Promise<void> {
    this.cluster.processes.delete(this.workerId);
  }

  /** The process dies: it stays registered and holds nothing alive. */
  crash(): void {
    const process = this.cluster.processes.get(this.workerId);
    if (process) process.alive = false;
  }

  async recoverDead(): Promise<RecoveredWork> {
    const others = [...this.cluster.processes].filter(([id]) => id !== this.workerId);
    const dead = others.filter(([, p]) => !p.alive).map(([id]) => id);
    if (!dead.length) return { workers: 0, events: 0, notifications: 0, others: others.length };
    dead.forEach((id) => this.cluster.processes.delete(id));
    const now = this.now();
    const notifications = new Set<string>();
    for (const job of this.jobs.jobs) {
      if (job.status === 'running' && job.leaseOwner !== null && dead.includes(job.leaseOwner)) {
        Object.assign(job, { status: 'queued', leaseOwner: null, updatedAt: now });
        notifications.add(job.notificationId);
      }
    }
    // Which due jobs its queue messages named is not known: all are queued again.
    for (const job of this.jobs.jobs) if (['queued', 'delayed'].includes(job.status) && job.runAt <= now) notifications.add(job.notificationId);
    return { workers: dead.length, events: 0, notifications: notifications.size, others: others.length - dead.length };
  }
}
