import { randomUUID } from 'node:crypto';
import type { WebhookHistorySeed } from '@herald/domain/testing/in-memory-retention-repository';
import type { Pool } from 'pg';

/**
 * Outbound webhook history for the retention contract, written as the outbox writes it: an event,
 * one delivery per status given (each to an endpoint of its own, disabled so that nothing else in the
 * environment writes events or sends them), and its attempts. Returns the events' ids.
 */
export async function insertWebhookHistory(pool: Pool, rows: WebhookHistorySeed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const id = randomUUID();
    ids.push(id);
    await pool.query(`INSERT INTO webhook_events (id, environment_id, type, ordering_key, data, created_at) VALUES ($1, $2, 'message.sent', $4, '{}', $3)`, [
      id,
      row.environmentId,
      row.createdAt,
      `notification:${id}`,
    ]);
    for (const status of row.deliveries) {
      const { rows: [endpoint] } = await pool.query<{ id: string }>(
        `INSERT INTO webhook_endpoints (environment_id, url, enabled, secrets) VALUES ($1, 'https://hooks.example.com/h', false, 'sealed') RETURNING id`,
        [row.environmentId],
      );
      const attempts = row.attempts ?? 1;
      const { rows: [delivery] } = await pool.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, ordering_key, status, attempts, created_at) VALUES ($1, $2, $3, $7, $4, $5, $6) RETURNING id`,
        [id, endpoint.id, row.environmentId, status, attempts, row.createdAt, `notification:${id}`],
      );
      await pool.query(
        `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, succeeded, duration_ms, created_at)
         SELECT $1, $2, $3, 'message.sent', n, $4 AND n = $5, 10, $6 FROM generate_series(1, $5::int) n`,
        [delivery.id, endpoint.id, id, status === 'succeeded', attempts, row.createdAt],
      );
    }
  }
  return ids;
}

/** The webhook event's pending deliveries succeed. */
export async function settleWebhookEvent(pool: Pool, id: string): Promise<void> {
  await pool.query(`UPDATE webhook_deliveries SET status = 'succeeded' WHERE event_id = $1 AND status = 'pending'`, [id]);
}
