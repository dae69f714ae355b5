import type { SendRateLimiter, SendSlot } from '@herald/domain';
import type pg from 'pg';

type Waiting = { resolve: (slot: SendSlot) => void; reject: (error: unknown) => void };
type Batch = { perSecond: number; horizonMs: number; waiting: Waiting[] };

// Gives the next `n` slots of an integration that start within the horizon, in one statement: the
// row is locked (FOR UPDATE), so concurrent reservations of every process queue on it and each slot
// goes to one send. Times are the database's, returned as offsets from its clock.
const RESERVE = `
WITH ensure AS (
  INSERT INTO send_rate_slots (integration_id, next_at) VALUES ($1::uuid, now()) ON CONFLICT (integration_id) DO NOTHING
), prev AS (
  SELECT integration_id, GREATEST(next_at, clock_timestamp()) AS start FROM send_rate_slots WHERE integration_id = $1::uuid FOR UPDATE
), granted AS (
  SELECT integration_id, start,
         LEAST($3::int, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (clock_timestamp() + make_interval(secs => $4::float8 / 1000) - start)) / $2::float8)))::int AS k
  FROM prev
)
UPDATE send_rate_slots s SET next_at = g.start + make_interval(secs => g.k * $2::float8)
FROM granted g WHERE s.integration_id = g.integration_id
RETURNING g.k, EXTRACT(EPOCH FROM (g.start - clock_timestamp())) * 1000 AS wait_ms`;

/**
 * SendRateLimiter on PostgreSQL: one row per integration holding its next free slot. The
 * reservations one process makes in the same tick for an integration go in one statement (a fan-out
 * reserves hundreds at once), not one round trip each.
 */
export class SqlSendRateLimiter implements SendRateLimiter {
  private readonly batches = new Map<string, Batch>();

  constructor(private readonly pool: pg.Pool) {}

  reserve(integrationId: string, perSecond: number, horizonMs: number): Promise<SendSlot> {
    return new Promise((resolve, reject) => {
      let batch = this.batches.get(integrationId);
      if (!batch) {
        this.batches.set(integrationId, (batch = { perSecond, horizonMs, waiting: [] }));
        setImmediate(() => void this.flush(integrationId));
      }
      batch.waiting.push({ resolve, reject });
    });
  }

  private async flush(integrationId: string): Promise<void> {
    const batch = this.batches.get(integrationId)!;
    this.batches.delete(integrationId);
    const step = 1 / batch.perSecond;
    try {
      // The row exists after the first reservation; the INSERT in the same statement sees none the first time.
      let rows = (await this.pool.query<{ k: number; wait_ms: string }>(RESERVE, [integrationId, step, batch.waiting.length, batch.horizonMs])).rows;
      if (!rows.length) rows = (await this.pool.query<{ k: number; wait_ms: string }>(RESERVE, [integrationId, step, batch.waiting.length, batch.horizonMs])).rows;
      const k = rows[0]?.k ?? 0;
      const waitMs = Math.max(0, Number(rows[0]?.wait_ms ?? 0));
      batch.waiting.forEach((w, i) => w.resolve(i < k ? { waitMs: waitMs + i * step * 1000 } : { retryInMs: waitMs + k * step * 1000 }));
    } catch (error) {
      for (const w of batch.waiting) w.reject(error);
    }
  }
}
