import { token } from '../shared/token';

export const WorkerRegistry = token<WorkerRegistry>('WorkerRegistry');

/** What the death of other worker processes gave back to the queue. */
export interface RecoveredWork {
  /** Dead worker processes whose work was taken over. */
  workers: number;
  /** Topic fan-outs they were expanding, queued again (they resume from their stored progress). */
  events: number;
  /** Notifications queued again: jobs they held leased, and due jobs whose queue message they may have held. */
  notifications: number;
  /** Other processes still registered after the check, alive or not yet taken over. */
  others: number;
}

/**
 * The worker processes sharing the database, and how each learns that another has died: a
 * registered process holds its liveness for as long as it runs, and loses it the moment it exits
 * or crashes, without waiting for any timeout.
 */
export interface WorkerRegistry {
  /** This process's id, recorded as the owner of the leases and fan-outs it runs. */
  readonly workerId: string;
  /** Registers this process and holds its liveness until `leave()`. Call before consuming work. */
  join(): Promise<void>;
  /**
   * Takes over the work of every registered process that is no longer alive, in one transaction:
   * its running fan-outs and its leased jobs are queued again, with every due job (whose queue
   * message it may have held). Each dead process is taken over by exactly one caller; safe to run
   * in every process at any time, since claims and fan-out chunks are idempotent.
   */
  recoverDead(): Promise<RecoveredWork>;
  /** Deregisters after a clean shutdown (this process holds no work any more). */
  leave(): Promise<void>;
}
