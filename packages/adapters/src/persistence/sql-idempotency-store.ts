import type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, IdempotencyStore, StoredResponse } from '@herald/domain';
import type { Pool } from 'pg';
import { deleteInBatches } from './batched-delete';
import { prepared } from './sql-params';

// Claim and complete commit without waiting for their WAL flush (synchronous_commit off for that one
// statement's transaction): a flush costs milliseconds on a durable disk and the records do not need
// it. A claim becomes durable with the request's own next synchronous commit (WAL is flushed in order),
// and a completion lost to a database crash within a fraction of a second leaves the key in progress,
// which lapses after 5 minutes: the same outcome as this process crashing before completing.
const ASYNC_COMMIT = `(SELECT set_config('synchronous_commit', 'off', true) AS setting) AS async_commit`;

// One statement: insert the in-progress marker, or take over a record that has expired. The row lock
// ON CONFLICT takes makes it atomic: of concurrent claims, one inserts and the others see its row.
// When nothing was claimed, the second branch reports the live record. It reads the statement's
// snapshot, so a record committed by a racing claim after this statement began is not in it: the
// statement then returns no row and is simply run again (see claim()).
const CLAIM = `
WITH claimed AS (
  INSERT INTO idempotency_records AS r (organization_id, key, request_hash, state, expires_at, created_at)
  SELECT $1::uuid, $2, $3, 'in_progress', $5::timestamptz, $4::timestamptz FROM ${ASYNC_COMMIT} WHERE async_commit.setting IS NOT NULL
  ON CONFLICT (organization_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, state = 'in_progress', status_code = NULL, response_body = NULL,
        content_type = NULL, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
    WHERE r.expires_at <= $4::timestamptz
  RETURNING 1
)
SELECT 'claimed' AS outcome, NULL::integer AS status_code, NULL::text AS response_body, NULL::text AS content_type FROM claimed
UNION ALL
SELECT CASE WHEN r.request_hash <> $3 THEN 'body-mismatch' WHEN r.state = 'done' THEN 'finished' ELSE 'in-progress' END,
       r.status_code, CASE WHEN r.request_hash = $3 THEN r.response_body END, r.content_type
FROM idempotency_records r
WHERE r.organization_id = $1::uuid AND r.key = $2 AND r.expires_at > $4::timestamptz AND NOT EXISTS (SELECT 1 FROM claimed)`;

const COMPLETE = `
UPDATE idempotency_records
SET state = 'done', status_code = $4, response_body = $5, content_type = $6, expires_at = $7::timestamptz
FROM ${ASYNC_COMMIT}
WHERE organization_id = $1::uuid AND key = $2 AND request_hash = $3 AND state = 'in_progress' AND async_commit.setting IS NOT NULL`;

const claimStatement = prepared('idempotency-claim', CLAIM);
const completeStatement = prepared('idempotency-complete', COMPLETE);

interface ClaimRow {
  outcome: 'claimed' | 'in-progress' | 'finished' | 'body-mismatch';
  status_code: number | null;
  response_body: string | null;
  content_type: string | null;
}

/** On the hot path of every POST and PATCH that carries a key: plain SQL on the shared pool, prepared once per connection. */
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: Pool) {}

  async claim({ organizationId, key, requestHash, now, expiresAt }: IdempotencyClaim): Promise<ClaimResult> {
    // A retry only happens when a racing claim committed mid-statement; the next snapshot sees its row.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { rows } = await this.pool.query<ClaimRow>(claimStatement([organizationId, key, requestHash, now, expiresAt]));
      const row = rows[0];
      if (!row) continue;
      if (row.outcome !== 'finished') return { outcome: row.outcome };
      return { outcome: 'finished', response: { statusCode: row.status_code!, body: row.response_body ?? '', contentType: row.content_type } };
    }
    throw new Error(`idempotency key '${key}' could not be claimed or read: it keeps changing`);
  }

  async complete({ organizationId, key }: IdempotencyKeyRef, requestHash: string, response: StoredResponse, expiresAt: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(completeStatement([organizationId, key, requestHash, response.statusCode, response.body, response.contentType, expiresAt]));
    return rowCount === 1;
  }

  purgeExpired(now: Date): Promise<number> {
    return deleteInBatches(this.pool, 'idempotency_records', 'expires_at <= $1::timestamptz', now);
  }
}
