import type { Pool } from 'pg';

export interface DeliveryBacklogFigures {
  /** Steps due now that no worker has run yet (queued or delayed with run_at passed). */
  dueSteps: number;
  /** Age of the oldest of those in seconds (0 when none): the delivery lag. */
  lagSeconds: number;
  /** Steps waiting for a later run_at (delays, retries, digest windows). */
  delayedSteps: number;
  /** Events whose topic fan-out is still expanding. */
  openFanouts: number;
  /** Open digest windows; null when this database has no digest windows table. */
  openDigests: number | null;
}

// Both counts read the partial (status, run_at) index of unfinished jobs, not the jobs table.
const BACKLOG = `
SELECT (SELECT count(*)::int FROM jobs WHERE status IN ('queued', 'delayed') AND run_at <= now()) AS due_steps,
       COALESCE((SELECT extract(epoch FROM now() - min(run_at)) FROM jobs WHERE status IN ('queued', 'delayed') AND run_at <= now()), 0)::float8 AS lag_seconds,
       (SELECT count(*)::int FROM jobs WHERE status = 'delayed' AND run_at > now()) AS delayed_steps,
       (SELECT count(*)::int FROM events WHERE status = 'fanning_out') AS open_fanouts`;

const UNDEFINED_TABLE_OR_COLUMN = new Set(['42P01', '42703']);

/** How far behind delivery is, read at scrape or readiness time (never on the delivery hot path). */
export class SqlDeliveryBacklog {
  constructor(private readonly pool: Pool) {}

  async read(): Promise<DeliveryBacklogFigures> {
    const [{ rows }, openDigests] = await Promise.all([this.pool.query(BACKLOG), this.openDigests()]);
    const r = rows[0];
    return { dueSteps: r.due_steps, lagSeconds: Math.round(r.lag_seconds * 1000) / 1000, delayedSteps: r.delayed_steps, openFanouts: r.open_fanouts, openDigests };
  }

  // Digest windows are written by the digest engine; a schema without them reports no figure.
  private async openDigests(): Promise<number | null> {
    try {
      const { rows } = await this.pool.query("SELECT count(*)::int AS n FROM digest_windows WHERE status = 'open'");
      return rows[0].n;
    } catch (error) {
      if (UNDEFINED_TABLE_OR_COLUMN.has((error as { code?: string }).code ?? '')) return null;
      throw error;
    }
  }
}
