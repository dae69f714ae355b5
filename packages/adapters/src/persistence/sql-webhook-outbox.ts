import type {
  CredentialCipher,
  WebhookAttempt,
  WebhookAttemptQuery,
  WebhookAttemptResult,
  WebhookDelivery,
  WebhookEventDraft,
  WebhookEventType,
  WebhookOutbox,
  WebhookReplay,
  WebhookSecrets,
} from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid, jsonParam } from './sql-params';
import { inTransaction } from './transaction';

// Per endpoint and ordering key, the first pending delivery (of enabled endpoints): the only one of
// its key that may be attempted, so a key's events arrive in order (webhook_deliveries_pending_idx
// says the order).
const HEADS = `
  SELECT DISTINCT ON (d.endpoint_id, d.ordering_key) d.id, d.seq, d.next_attempt_at, d.locked_until
  FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
  WHERE d.status = 'pending'
  ORDER BY d.endpoint_id, d.ordering_key, d.created_at, d.phase, d.seq`;

// Leases due heads. Two processes racing for one row: the second's UPDATE re-reads it after the first
// commits, finds it leased, and skips it.
const CLAIM = `
WITH due AS (
  SELECT id FROM (${HEADS}) h
  WHERE h.next_attempt_at <= now() AND (h.locked_until IS NULL OR h.locked_until <= now())
  ORDER BY h.seq LIMIT $1
), leased AS (
  UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => $2 / 1000.0), updated_at = now()
  FROM due WHERE d.id = due.id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= now())
  RETURNING d.id, d.seq, d.event_id, d.endpoint_id, d.environment_id, d.attempts
)
SELECT l.id, l.event_id, l.endpoint_id, l.environment_id, l.attempts, e.url, e.secrets, ev.type, ev.data, ev.created_at, now() AS now
FROM leased l JOIN webhook_endpoints e ON e.id = l.endpoint_id JOIN webhook_events ev ON ev.id = l.event_id
ORDER BY l.seq`;

// One transaction per round: the log, each delivery's next state, and each endpoint's health.
const RECORD = `
WITH r AS (
  SELECT r.*, d.event_id, ev.type FROM jsonb_to_recordset($1::jsonb) AS r(delivery_id uuid, endpoint_id uuid, attempt int, succeeded boolean,
    response_status int, response_body text, error text, duration_ms int, next_attempt_at timestamptz)
  JOIN webhook_deliveries d ON d.id = r.delivery_id JOIN webhook_events ev ON ev.id = d.event_id
), logged AS (
  INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, succeeded, response_status, response_body, error, duration_ms)
  SELECT delivery_id, endpoint_id, event_id, type, attempt, succeeded, response_status, response_body, error, duration_ms FROM r ORDER BY delivery_id
), deliveries AS (
  UPDATE webhook_deliveries d SET attempts = r.attempt, locked_until = NULL, updated_at = now(),
    status = CASE WHEN r.succeeded THEN 'succeeded' WHEN r.next_attempt_at IS NULL THEN 'failed' ELSE 'pending' END,
    next_attempt_at = COALESCE(r.next_attempt_at, d.next_attempt_at)
  FROM r WHERE d.id = r.delivery_id
)
UPDATE webhook_endpoints e SET failing_since = CASE WHEN h.any_success THEN NULL ELSE COALESCE(e.failing_since, now()) END
FROM (SELECT endpoint_id, bool_or(succeeded) AS any_success FROM r GROUP BY endpoint_id) h
WHERE e.id = h.endpoint_id`;

interface AttemptRow {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  succeeded: boolean;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

const toAttempt = (r: AttemptRow): WebhookAttempt => ({
  id: r.id,
  deliveryId: r.delivery_id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type as WebhookEventType,
  attempt: r.attempt,
  succeeded: r.succeeded,
  responseStatus: r.response_status,
  responseBody: r.response_body,
  error: r.error,
  durationMs: r.duration_ms,
  createdAt: r.created_at,
});

/**
 * The webhook outbox in PostgreSQL. The migration's triggers write events in the transactions of
 * the changes they describe and turn each into deliveries; this adapter hands those out, records
 * attempts and serves the delivery log.
 */
export class SqlWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: CredentialCipher,
  ) {}

  append(events: WebhookEventDraft[]): Promise<number> {
    if (!events.length) return Promise.resolve(0);
    return inTransaction(this.pool, async (client) => {
      const rows = events.map((e, ord) => ({ ord, environment_id: e.environmentId, type: e.type, ordering_key: e.orderingKey, data: e.data }));
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO webhook_events (environment_id, type, ordering_key, data)
         SELECT environment_id, type, ordering_key, data FROM jsonb_to_recordset($1::jsonb) AS r(ord int, environment_id uuid, type text, ordering_key text, data jsonb)
         ORDER BY ord RETURNING id`,
        [jsonParam(rows)],
      );
      const made = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])', [inserted.rows.map((r) => r.id)]);
      return made.rows[0].n;
    });
  }

  async claim(limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const { rows } = await this.pool.query(CLAIM, [limit, leaseMs]);
    return rows.map((r): WebhookDelivery => {
      const { current, previous, previousUntil } = this.cipher.decrypt(r.secrets) as unknown as WebhookSecrets;
      const overlapping = previous && previousUntil && new Date(previousUntil) > r.now;
      return {
        id: r.id,
        eventId: r.event_id,
        endpointId: r.endpoint_id,
        environmentId: r.environment_id,
        url: r.url,
        secrets: overlapping ? [current, previous] : [current],
        type: r.type,
        // The same bytes on every attempt: jsonb keeps one key order, and the timestamp is the event's.
        body: JSON.stringify({ type: r.type, timestamp: new Date(r.created_at).toISOString(), data: r.data }),
        attempts: r.attempts,
      };
    });
  }

  record(results: WebhookAttemptResult[], disableIfFailingSince: Date): Promise<{ disabled: string[] }> {
    if (!results.length) return Promise.resolve({ disabled: [] });
    const rows = results.map((r) => ({
      delivery_id: r.deliveryId,
      endpoint_id: r.endpointId,
      attempt: r.attempt,
      succeeded: r.succeeded,
      response_status: r.responseStatus,
      response_body: r.responseBody,
      error: r.error,
      duration_ms: r.durationMs,
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    }));
    return inTransaction(this.pool, async (client) => {
      await client.query(RECORD, [jsonParam(rows)]);
      const disabled = await client.query<{ id: string }>(
        `UPDATE webhook_endpoints SET enabled = false, updated_at = now(),
           disabled_reason = 'every attempt failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         WHERE id = ANY($1::uuid[]) AND enabled AND failing_since <= $2 RETURNING id`,
        [[...new Set(results.map((r) => r.endpointId))], disableIfFailingSince],
      );
      return { disabled: disabled.rows.map((r) => r.id) };
    });
  }

  async attempts(environmentId: string, endpointId: string, query: WebhookAttemptQuery): Promise<WebhookAttempt[]> {
    if (!isUuid(endpointId) || (query.before !== undefined && !isUuid(query.before))) return [];
    const { rows } = await this.pool.query<AttemptRow>(
      `SELECT a.* FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id AND e.environment_id = $1
       WHERE a.endpoint_id = $2 AND ($3::uuid IS NULL OR a.id < $3) ORDER BY a.id DESC LIMIT $4`,
      [environmentId, endpointId, query.before ?? null, query.limit],
    );
    return rows.map(toAttempt);
  }

  async replay(environmentId: string, endpointId: string, which: WebhookReplay): Promise<number> {
    if (!isUuid(endpointId) || ('attemptId' in which && !isUuid(which.attemptId))) return 0;
    const chosen =
      'attemptId' in which
        ? { where: 'd.id = (SELECT delivery_id FROM webhook_attempts WHERE id = $3 AND endpoint_id = $2)', params: [which.attemptId] }
        : { where: 'd.event_id IN (SELECT id FROM webhook_events WHERE environment_id = $1 AND created_at >= $3 AND created_at < $4)', params: [which.since, which.until] };
    // A replay goes to the back of its key's line (a new seq), with a fresh schedule and the same event id.
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = NULL, updated_at = now(), created_at = now(),
         seq = nextval(pg_get_serial_sequence('webhook_deliveries', 'seq'))
       WHERE d.endpoint_id = $2 AND d.environment_id = $1 AND d.status <> 'pending' AND ${chosen.where}`,
      [environmentId, endpointId, ...chosen.params],
    );
    return rowCount ?? 0;
  }

  async nextDueAt(): Promise<Date | null> {
    const { rows } = await this.pool.query<{ at: Date | null }>(`SELECT min(GREATEST(h.next_attempt_at, h.locked_until)) AS at FROM (${HEADS}) h`);
    return rows[0].at;
  }
}
