import { randomUUID } from 'node:crypto';
import { idempotencyStoreContract } from '@herald/domain/testing/idempotency-store-contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlIdempotencyStore } from './sql-idempotency-store';

// Many connections, so concurrent claims really run at the same time in PostgreSQL.
const database = useTestDatabase(50);

idempotencyStoreContract('PostgreSQL', () => new SqlIdempotencyStore(database.db.pool));

describe('SqlIdempotencyStore on PostgreSQL', () => {
  const now = () => new Date();
  const inFive = () => new Date(Date.now() + 5 * 60_000);

  it('gives exactly one claim among 200 concurrent claims of one key, over 20 rounds', async () => {
    const store = new SqlIdempotencyStore(database.db.pool);
    const organizationId = randomUUID();
    for (let round = 0; round < 20; round++) {
      const key = `race-${round}`;
      const results = await Promise.all(Array.from({ length: 200 }, () => store.claim({ organizationId, key, requestHash: 'h', now: now(), expiresAt: inFive() })));
      const outcomes = results.map((r) => r.outcome);
      expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'claimed').every((o) => o === 'in-progress')).toBe(true);
    }
  });

  it('gives exactly one claim when racing to take over an expired record', async () => {
    const store = new SqlIdempotencyStore(database.db.pool);
    const ref = { organizationId: randomUUID(), key: 'expired-race' };
    await store.claim({ ...ref, requestHash: 'old', now: now(), expiresAt: now() });
    await new Promise((r) => setTimeout(r, 5));
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.claim({ ...ref, requestHash: `h${i % 2}`, now: now(), expiresAt: inFive() })),
    );
    expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    expect(results.every((r) => ['claimed', 'in-progress', 'body-mismatch'].includes(r.outcome))).toBe(true);
  });

  it('stores the response text byte for byte', async () => {
    const store = new SqlIdempotencyStore(database.db.pool);
    const ref = { organizationId: randomUUID(), key: 'bytes' };
    const body = '{ "a" : "ünïcødé ✓ \\u0000", "b": [1, 2.50, 1e3] }\n';
    await store.claim({ ...ref, requestHash: 'h', now: now(), expiresAt: inFive() });
    await store.complete(ref, 'h', { statusCode: 422, body, contentType: 'application/json; charset=UTF-8' }, new Date(Date.now() + 86_400_000));
    const replay = await store.claim({ ...ref, requestHash: 'h', now: now(), expiresAt: inFive() });
    expect(replay).toEqual({ outcome: 'finished', response: { statusCode: 422, body, contentType: 'application/json; charset=UTF-8' } });
  });

  it('relaxes synchronous_commit for its own statements only, never for the connection', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      // The throwaway test cluster runs with it off; the session asks for it the way a durable one has it.
      await pool.query('SET synchronous_commit = on');
      const store = new SqlIdempotencyStore(pool);
      const ref = { organizationId: randomUUID(), key: 'session' };
      await store.claim({ ...ref, requestHash: 'h', now: now(), expiresAt: inFive() });
      await store.complete(ref, 'h', { statusCode: 201, body: '{}', contentType: null }, inFive());
      const { rows } = await pool.query('SHOW synchronous_commit');
      expect(rows[0].synchronous_commit).toBe('on');
    } finally {
      await pool.end();
    }
  });

  it('purges a large backlog in batches', async () => {
    const store = new SqlIdempotencyStore(database.db.pool);
    const past = new Date(Date.now() - 1_000);
    await database.db.pool.query(
      `INSERT INTO idempotency_records (organization_id, key, request_hash, state, expires_at)
       SELECT $1::uuid, 'bulk-' || g, 'h', 'done', $2 FROM generate_series(1, 12000) g`,
      [randomUUID(), past],
    );
    expect(await store.purgeExpired(now())).toBeGreaterThanOrEqual(12_000);
    const { rows } = await database.db.pool.query(`SELECT count(*)::int AS n FROM idempotency_records WHERE expires_at <= now()`);
    expect(rows[0].n).toBe(0);
  });
});
