import type { RecoveredWork, WorkerRegistry } from '@herald/domain';
import type { Pool } from 'pg';
import { DEAD_WORKERS, OTHER_WORKERS, type ProcessLiveness } from '../database/process-liveness';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { inTransaction } from './transaction';

/** Due jobs re-queued per dead process at most; the periodic stalled-work sweep covers any beyond. */
const DUE_LIMIT = 100_000;

/**
 * Worker processes registered in `worker_processes`, each alive while it holds its advisory lock
 * (ProcessLiveness). Leases (`jobs.lease_owner`) and fan-outs (`events.fanout_owner`) name the
 * process that runs them, so a dead process's are released without waiting for a lease to lapse.
 */
export class SqlWorkerRegistry implements WorkerRegistry {
  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
    private readonly liveness: ProcessLiveness,
  ) {}

  get workerId(): string {
    return this.liveness.workerId;
  }

  join(): Promise<void> {
    return this.liveness.hold();
  }

  leave(): Promise<void> {
    return this.liveness.release();
  }

  async recoverDead(): Promise<RecoveredWork> {
    // The common case, every second or two in every process: one read of a table of a few rows.
    const found = await this.pool.query<{ id: string; gone: boolean }>(OTHER_WORKERS, [this.workerId]);
    const others = found.rows.length;
    if (!found.rows.some((w) => w.gone)) return { workers: 0, events: 0, notifications: 0, others };
    return inTransaction(this.pool, async (client) => {
      // Locked and checked again: of several processes noticing one death, one takes the work over.
      const dead = await client.query<{ id: string }>(
        `DELETE FROM worker_processes WHERE id IN (${DEAD_WORKERS} FOR UPDATE OF w SKIP LOCKED) RETURNING id`,
        [this.workerId],
      );
      const ids = dead.rows.map((r) => r.id);
      if (!ids.length) return { workers: 0, events: 0, notifications: 0, others };
      // Fan-outs resume from their committed progress. Marked as touched so the stalled-work sweep skips them.
      const events = await client.query<{ id: string }>(
        `UPDATE events SET fanout_owner = NULL, fanout_cursor = jsonb_set(COALESCE(fanout_cursor, '{}'), '{at}', to_jsonb(now()))
         WHERE status = 'fanning_out' AND fanout_owner = ANY($1::uuid[]) RETURNING id`,
        [ids],
      );
      // Its leases end now: the jobs are due again, and a record from their old attempt is still fenced out
      // once a new attempt claims them.
      const leased = await client.query<{ notification_id: string }>(
        `UPDATE jobs SET status = 'queued', lease_owner = NULL, updated_at = now()
         WHERE status = 'running' AND lease_owner = ANY($1::uuid[]) RETURNING notification_id`,
        [ids],
      );
      // Which due jobs its queue messages named is not recorded (that would cost a write per batch on
      // the hot path): all due jobs are queued again. Claims are idempotent, so a job queued twice runs once.
      const due = await client.query<{ notification_id: string }>(
        `SELECT notification_id FROM jobs WHERE status IN ('queued', 'delayed') AND run_at <= now() LIMIT ${DUE_LIMIT}`,
      );
      const notificationIds = [...new Set([...leased.rows, ...due.rows].map((r) => r.notification_id))];
      await this.queue.enqueueIn(client, [...fanoutWork(events.rows.map((e) => e.id)), ...stepsWork(notificationIds)]);
      const left = found.rows.filter((w) => !ids.includes(w.id)).length;
      return { workers: ids.length, events: events.rows.length, notifications: notificationIds.length, others: left };
    });
  }
}
