import type { DeliveryQueue, DeliveryWorkHandlers } from '@herald/domain';
import type { PoolClient } from 'pg';
import type { PgBoss } from './pg-boss';

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

  constructor(private readonly boss: PgBoss) {}

  async ensureQueues(): Promise<void> {
    const options = { notify: true, retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 };
    for (const name of [FANOUT_QUEUE, STEPS_QUEUE]) {
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, options);
    }
  }

  /** Inserts work inside the transaction of `client`; it becomes visible (and wakes workers) on commit. */
  async enqueueIn(client: PoolClient, work: QueuedWork[]): Promise<void> {
    const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    for (const queue of [FANOUT_QUEUE, STEPS_QUEUE] as const) {
      const jobs = work.filter((w) => w.queue === queue).map((w) => ({ data: w.data, startAfter: w.startAfter }));
      if (jobs.length) await this.boss.insert(queue, jobs, { db });
    }
  }

  async consume(handlers: DeliveryWorkHandlers): Promise<void> {
    await this.ensureQueues();
    const polling = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 5 };
    this.workers.push(
      await this.boss.work<{ eventIds: string[] }>(FANOUT_QUEUE, { batchSize: 4, ...polling }, async (jobs) => {
        await handlers.fanout(jobs.flatMap((j) => j.data.eventIds ?? []));
      }),
      await this.boss.work<{ notificationIds: string[] }>(STEPS_QUEUE, { batchSize: 100, localConcurrency: 2, ...polling }, async (jobs) => {
        await handlers.steps(jobs.flatMap((j) => j.data.notificationIds ?? []));
      }),
    );
  }

  async stop(): Promise<void> {
    for (const name of [FANOUT_QUEUE, STEPS_QUEUE]) await this.boss.offWork(name, { wait: true }).catch(() => undefined);
    this.workers = [];
  }
}
