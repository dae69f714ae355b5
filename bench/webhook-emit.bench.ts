import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations, startEmbeddedPostgres } from '@herald/adapters';
import pg from 'pg';

// Issue 45: what producing outbound webhook events costs the delivery hot path, per message written.
// Messages are inserted as the engine writes them, one statement per batch of 250, in four settings:
// the webhook triggers switched off (as before webhooks), on with no endpoint anywhere (every
// installation that does not use them), on with an endpoint only in another environment, and on
// with an endpoint taking message.sent (an event and a delivery written per message).
const BATCH = 250;
const BATCHES = Number(process.env.WEBHOOK_EMIT_BATCHES ?? 80);
const ROUNDS = 3;

const dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-webhook-emit-'));
const postgres = await startEmbeddedPostgres({ dataDir });
const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
try {
  await applyMigrations(pool);
  const { rows: [ids] } = await pool.query<{ env: string; other: string; sub: string }>(
    `WITH org AS (INSERT INTO organizations (name) VALUES ('bench') RETURNING id),
     envs AS (INSERT INTO environments (organization_id, name, slug, signing_secret) SELECT id, s, s, 'x' FROM org, unnest(ARRAY['a', 'b']) s RETURNING id, slug),
     sub AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT id, 'bench' FROM envs WHERE slug = 'a' RETURNING id)
     SELECT (SELECT id FROM envs WHERE slug = 'a') AS env, (SELECT id FROM envs WHERE slug = 'b') AS other, (SELECT id FROM sub) AS sub`,
  );
  const insertBatch = () =>
    pool.query(
      `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, body, status, workflow)
       SELECT $1, uuidv7(), uuidv7(), $2, 'tx-' || g, 'email', 'sendgrid', 'Hello there, this is a message body of ordinary length.', 'sent', '{"identifier":"bench"}'
       FROM generate_series(1, $3) g`,
      [ids.env, ids.sub, BATCH],
    );
  const settings: Array<[string, () => Promise<unknown>]> = [
    ['triggers off (before webhooks)', () => pool.query('ALTER TABLE messages DISABLE TRIGGER messages_webhook_inserted')],
    ['no endpoint anywhere', () => pool.query('ALTER TABLE messages ENABLE TRIGGER messages_webhook_inserted')],
    ['an endpoint in another environment', () => pool.query(`INSERT INTO webhook_endpoints (environment_id, url, secrets) VALUES ($1, 'https://x.example', 'x')`, [ids.other])],
    ['an endpoint taking message.sent', () => pool.query(`INSERT INTO webhook_endpoints (environment_id, url, secrets, event_types) VALUES ($1, 'https://y.example', 'x', '{message.sent}')`, [ids.env])],
  ];
  for (let i = 0; i < 10; i++) await insertBatch();
  const results: string[] = [];
  for (const [name, apply] of settings) {
    await apply();
    const perMessageUs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      for (let b = 0; b < BATCHES; b++) await insertBatch();
      perMessageUs.push(((performance.now() - started) * 1000) / (BATCHES * BATCH));
    }
    perMessageUs.sort((a, b) => a - b);
    results.push(`${name.padEnd(36)} ${perMessageUs[1].toFixed(1)} µs per message (median of ${ROUNDS} runs of ${BATCHES * BATCH})`);
  }
  const { rows: [written] } = await pool.query<{ events: number; deliveries: number }>('SELECT (SELECT count(*)::int FROM webhook_events) AS events, (SELECT count(*)::int FROM webhook_deliveries) AS deliveries');
  console.log(results.join('\n'));
  console.log(`events written: ${written.events}, deliveries: ${written.deliveries} (only in the last setting: ${ROUNDS * BATCHES * BATCH} expected)`);
} finally {
  await pool.end();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
