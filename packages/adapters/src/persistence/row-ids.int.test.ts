import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { insertWorkflowEnvironment } from '../testing/use-database-before-migration';
import { useTestDatabase } from '../testing/use-test-database';
import { newRowId } from './row-ids';

const database = useTestDatabase(2);

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The milliseconds a version 7 id holds in its first 48 bits. */
const msOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

it('makes version 7 ids holding the time they were made, later ones sorting after earlier ones, none twice', async () => {
  const before = Date.now();
  const ids = Array.from({ length: 100_000 }, newRowId);
  const after = Date.now();
  for (const id of ids) expect(id).toMatch(V7);
  expect(new Set(ids).size).toBe(ids.length);
  expect(msOf(ids[0])).toBeGreaterThanOrEqual(before);
  expect(msOf(ids[ids.length - 1])).toBeLessThanOrEqual(after);
  // The time never goes back from one id to the next (ids of one millisecond are in no order among themselves).
  expect(ids.every((id, i) => i === 0 || msOf(id) >= msOf(ids[i - 1]))).toBe(true);
  // An id of a later millisecond holds it, and sorts after the earlier ones.
  const earlier = newRowId();
  await sleep(2);
  const later = newRowId();
  expect(msOf(later)).toBeGreaterThan(msOf(earlier));
  expect(later > earlier).toBe(true);
  // PostgreSQL reads the same time from it.
  const { rows } = await database.db.pool.query<{ ms: number }>('SELECT (extract(epoch FROM uuid_extract_timestamp($1::uuid)) * 1000)::float8 AS ms', [earlier]);
  expect(rows[0].ms).toBe(msOf(earlier));
});

it('fills every random digit of an id evenly: each of its 16 values (4 for the variant) about as often', () => {
  const ids = Array.from({ length: 64_000 }, newRowId);
  // The random digits: after the version digit (14), skipping the dash at 18; the variant digit is 19.
  const positions = [15, 16, 17, ...Array.from({ length: 3 }, (_, i) => 20 + i), ...Array.from({ length: 12 }, (_, i) => 24 + i)];
  for (const at of [...positions, 19]) {
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id[at], (counts.get(id[at]) ?? 0) + 1);
    const values = at === 19 ? 4 : 16;
    expect(counts.size, `digit ${at}`).toBe(values);
    // Expected 4,000 each (16,000 for the variant); a fair source strays by a few percent, not ten.
    for (const n of counts.values()) expect(Math.abs(n - ids.length / values) / (ids.length / values), `digit ${at}`).toBeLessThan(0.1);
  }
});

it("gives the delivery tables' rows time-ordered ids by default, and subscribers random ones", async () => {
  const { pool } = database.db;
  const { env, workflow } = await insertWorkflowEnvironment(pool);
  const { rows } = await pool.query<Record<string, string>>(
    `WITH s AS (INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'ids') RETURNING id),
     e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to") VALUES ($1, $2, 'ids', '{}') RETURNING id),
     n AS (INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id) SELECT $1, e.id, $2, s.id, 'ids' FROM e, s RETURNING id, subscriber_id),
     j AS (INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status) SELECT $1, n.id, n.subscriber_id, gen_random_uuid(), 's', 'in_app', 0, 'completed' FROM n RETURNING id, notification_id, subscriber_id),
     d AS (INSERT INTO execution_details (environment_id, job_id, notification_id, status, detail) SELECT $1, j.id, j.notification_id, 'Success', 'ok' FROM j RETURNING id),
     m AS (INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, body) SELECT $1, j.notification_id, j.id, j.subscriber_id, 'ids', 'in_app', 'Hi' FROM j RETURNING id)
     SELECT (SELECT id FROM s) AS subscriber, (SELECT id FROM e) AS event, (SELECT id FROM n) AS notification, (SELECT id FROM j) AS job,
            (SELECT id FROM d) AS detail, (SELECT id FROM m) AS message`,
    [env, workflow],
  );
  const { subscriber, ...delivery } = rows[0];
  for (const id of Object.values(delivery)) {
    expect(id).toMatch(V7);
    expect(Math.abs(msOf(id) - Date.now())).toBeLessThan(60_000);
  }
  // A topic fan-out splits subscribers into lanes of equal id ranges, which hold equal shares only of random ids.
  expect(subscriber).toMatch(V4);
});

it('defines, for a PostgreSQL older than 18, a uuidv7() in SQL that makes version 7 ids of the current time', async () => {
  const sql = await readFile(fileURLToPath(new URL('../../prisma/migrations/20261126190000_time_ordered_delivery_ids/migration.sql', import.meta.url)), 'utf8');
  const body = /CREATE FUNCTION uuidv7\(\) RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS \$uuidv7\$([\s\S]*?)\$uuidv7\$/.exec(sql)?.[1];
  expect(body).toBeDefined();
  // This server has its own uuidv7(): the migration's is tried under another name, in this session only.
  const client = await database.db.pool.connect();
  try {
    await client.query(`CREATE FUNCTION pg_temp.uuidv7_fallback() RETURNS uuid LANGUAGE sql VOLATILE AS $f$${body}$f$`);
    const made = async () =>
      (await client.query<{ id: string; ms: number; version: number }>(
        'SELECT id, (extract(epoch FROM uuid_extract_timestamp(id)) * 1000)::float8 AS ms, uuid_extract_version(id) AS version FROM pg_temp.uuidv7_fallback() AS id',
      )).rows[0];
    const before = Date.now();
    const first = await made();
    await sleep(2);
    const second = await made();
    for (const r of [first, second]) {
      expect(r.id).toMatch(V7);
      expect(r.version).toBe(7);
      expect(r.ms).toBe(msOf(r.id));
    }
    expect(first.ms).toBeGreaterThanOrEqual(before - 1000);
    expect(first.ms).toBeLessThanOrEqual(Date.now() + 1000);
    expect(second.id > first.id).toBe(true);
  } finally {
    client.release();
  }
});
