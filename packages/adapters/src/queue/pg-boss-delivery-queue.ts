import type { DeliveryQueue, DeliveryWorkHandlers } from '@herald/domain';
import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import { libraryQuery } from '../persistence/sql-params';
import type { PgBoss } from './pg-boss';
import type { PgDueWorkWaker } from './pg-due-work-waker';

export const FANOUT_QUEUE = 'herald-fanout';
export const STEPS_QUEUE = 'herald-steps';

/** Notifications per queue message: work is queued in batches, never one message per delivery. */
export const STEPS_PER_MESSAGE = 250;

export interface QueuedWork {
  queue: typeof FANOUT_QUEUE | typeof STEPS_QUEUE;
  data: { eventIds?: string[]; notificationIds?: string[] };
  startAfter?: Date;
}

/** One fan-out message per event, so several workers can expand different events at once. */
export function fanoutWork(eventIds: string[]): QueuedWork[] {
  return eventIds.map((id) => ({ queue: FANOUT_QUEUE, data: { eventIds: [id] } }));
}

/** The same queue messages as `work`, for `notificationIds` split into batches. */
export function stepsWork(notificationIds: string[], startAfter?: Date): QueuedWork[] {
  const work: QueuedWork[] = [];
  for (let i = 0; i < notificationIds.length; i += STEPS_PER_MESSAGE) {
    work.push({ queue: STEPS_QUEUE, data: { notificationIds: notificationIds.slice(i, i + STEPS_PER_MESSAGE) }, startAfter });
  }
  return work;
}

/**
 * pg-boss as the delivery queue. Messages are inserted through the caller's transaction (pg-boss's
 * `db` option), so work exists exactly when the rows it refers to are committed: an outbox without
 * a relay. Queues use LISTEN/NOTIFY, so workers in every process wake when work commits.
 */
export class PgBossDeliveryQueue implements DeliveryQueue {
  private workers: string[] = [];

  constructor(
    private readonly boss: PgBoss,
    private readonly log?: Logger,
    /** Starts delayed steps on time, between pg-boss's polls. */
    private readonly waker?: PgDueWorkWaker,
  ) {}

  async ensureQueues(): Promise<void> {
    const options = { notify: true, retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 };
    for (const name of [FANOUT_QUEUE, STEPS_QUEUE]) {
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, options);
    }
  }

  /** Inserts work inside the transaction of `client`; it becomes visible (and wakes workers) on commit. */
  enqueueIn(client: PoolClient, work: QueuedWork[]): Promise<void> {
    // Named, so each connection plans pg-boss's insert once rather than on every trigger batch.
    return this.insert(work, { db: { executeSql: (text: string, values?: unknown[]) => client.query(libraryQuery(text, values)) } });
  }

  /** Inserts work on its own (for work whose loss the recovery sweep repairs). */
  enqueue(work: QueuedWork[]): Promise<void> {
    return this.insert(work, {});
  }

  private async insert(work: QueuedWork[], options: { db?: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } }) {
    for (const queue of [FANOUT_QUEUE, STEPS_QUEUE] as const) {
      const jobs = work.filter((w) => w.queue === queue).map((w) => ({ data: w.data, startAfter: w.startAfter }));
      if (jobs.length) await this.boss.insert(queue, jobs, options);
    }
  }

  async consume(handlers: DeliveryWorkHandlers): Promise<void> {
    await this.ensureQueues();
    const polling = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 5 };
    this.workers.push(
      await this.boss.work<{ eventIds: string[] }>(FANOUT_QUEUE, { batchSize: 4, ...polling }, (jobs) =>
        this.logged('fan-out', () => handlers.fanout(jobs.flatMap((j) => j.data.eventIds ?? []))),
      ),
      await this.boss.work<{ notificationIds: string[] }>(STEPS_QUEUE, { batchSize: 100, localConcurrency: 2, ...polling }, (jobs) =>
        this.logged('steps', () => handlers.steps(jobs.flatMap((j) => j.data.notificationIds ?? []))),
      ),
    );
    await this.waker?.start((ids) => (handlers.dueSteps ?? handlers.steps)(ids));
  }

  /** A failed batch is retried by pg-boss with backoff; say why it failed. */
  private async logged(work: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.log?.error({ err, work }, 'delivery work failed; it will be retried');
      throw err;
    }
  }

  async stop(): Promise<void> {
    await this.waker?.stop();
    for (const name of [FANOUT_QUEUE, STEPS_QUEUE]) await this.boss.offWork(name, { wait: true }).catch(() => undefined);
    this.workers = [];
  }
}
