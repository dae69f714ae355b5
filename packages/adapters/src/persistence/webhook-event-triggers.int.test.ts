import { describe, expect, it } from 'vitest';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint-repository';

const database = useTestDatabase();
const cipher = new AesGcmCredentialCipher(Buffer.alloc(32, 7));

async function setup(eventTypes: string[] = []) {
  const [env, other] = await contractEnvironments(database.db.pool);
  const endpoints = new SqlWebhookEndpointRepository(database.db.pool, cipher);
  const endpoint = await endpoints.insert(env, { url: 'https://hooks.example/', description: null, eventTypes: eventTypes as never, enabled: true, secret: 'whsec_c2VjcmV0' });
  const q = (sql: string, params: unknown[] = []) => database.db.pool.query(sql, params);
  const events = async (environmentId = env) =>
    (await q(`SELECT ev.type, ev.ordering_key, ev.data, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = ev.id) AS deliveries
              FROM webhook_events ev WHERE ev.environment_id = $1 ORDER BY ev.id`, [environmentId])).rows;
  return { env, other, endpoint, endpoints, q, events };
}

async function message(q: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>, env: string, subscriberRowId: string, status: string, channel = 'email') {
  const { rows } = await q(
    `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, body, status, workflow)
     VALUES ($1, gen_random_uuid(), gen_random_uuid(), $2, 'tx-1', $3, 'sendgrid', 'Hello', $4, '{"identifier":"welcome"}') RETURNING id, notification_id`,
    [env, subscriberRowId, channel, status],
  );
  return rows[0] as { id: string; notification_id: string };
}

describe('webhook events written by the database in the transaction of each change', () => {
  it('subscribers created, updated (not presence) and deleted, without their channel credentials', async () => {
    const { env, q, events } = await setup();
    const { rows: [s] } = await q(`INSERT INTO subscribers (environment_id, subscriber_id, email, channels) VALUES ($1, 'ada', 'ada@example.com', '[{"credentials":{"webhookUrl":"https://x"}}]') RETURNING id`, [env]);
    await q(`UPDATE subscribers SET is_online = true, last_online_at = now() WHERE id = $1`, [s.id]);
    await q(`UPDATE subscribers SET first_name = 'Ada' WHERE id = $1`, [s.id]);
    await q(`DELETE FROM subscribers WHERE id = $1`, [s.id]);
    const written = await events();
    expect(written.map((e) => [e.type, e.ordering_key, e.deliveries])).toEqual([
      ['subscriber.created', 'subscriber:ada', 1],
      ['subscriber.updated', 'subscriber:ada', 1],
      ['subscriber.deleted', 'subscriber:ada', 1],
    ]);
    expect(written[1].data).toMatchObject({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' });
    expect(JSON.stringify(written)).not.toContain('webhookUrl');
  });

  it('messages sent and failed, then read, seen, archived, delivered and failed by a receipt, in the order they happened', async () => {
    const { env, q, events } = await setup();
    const { rows: [s] } = await q(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'bob') RETURNING id`, [env]);
    const sent = await message(q, env, s.id, 'sent', 'in_app');
    await message(q, env, s.id, 'failed');
    await q(`UPDATE messages SET is_seen = true WHERE id = $1`, [sent.id]);
    await q(`UPDATE messages SET is_read = true, is_archived = true WHERE id = $1`, [sent.id]);
    await q(`UPDATE messages SET is_read = true WHERE id = $1`, [sent.id]);
    await q(`UPDATE messages SET status = 'delivered' WHERE id = $1`, [sent.id]);
    // A receipt failing a sent message; the same status written again is no change.
    const refused = await message(q, env, s.id, 'sent');
    await q(`UPDATE messages SET status = 'failed' WHERE id = $1`, [refused.id]);
    await q(`UPDATE messages SET status = 'failed' WHERE id = $1`, [refused.id]);
    const written = (await events()).filter((e) => e.type.startsWith('message.'));
    expect(written.map((e) => e.type)).toEqual([
      'message.sent', 'message.failed', 'message.seen', 'message.read', 'message.archived', 'message.delivered', 'message.sent', 'message.failed',
    ]);
    expect(written[7]).toMatchObject({ ordering_key: refused.notification_id, data: { messageId: refused.id, status: 'failed' } });
    expect(written[0]).toMatchObject({ ordering_key: sent.notification_id, data: { messageId: sent.id, subscriberId: 'bob', workflowId: 'welcome', channel: 'in_app', transactionId: 'tx-1' } });
  });

  it('preferences and workflows: created, changed, deleted; a trigger stamping last_triggered_at is no change', async () => {
    const { env, q, events } = await setup();
    const { rows: [s] } = await q(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'cy') RETURNING id`, [env]);
    const { rows: [w] } = await q(`INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'digest', 'Digest') RETURNING id`, [env]);
    await q(`UPDATE workflows SET last_triggered_at = now() WHERE id = $1`, [w.id]);
    await q(`UPDATE workflows SET name = 'Daily digest' WHERE id = $1`, [w.id]);
    const { rows: [p] } = await q(`INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels) VALUES ($1, $2, $3, true, '{"email":false}') RETURNING id`, [env, s.id, w.id]);
    await q(`UPDATE subscriber_preferences SET updated_at = now() WHERE id = $1`, [p.id]);
    await q(`UPDATE subscriber_preferences SET enabled = false WHERE id = $1`, [p.id]);
    await q(`UPDATE workflows SET deleted = true WHERE id = $1`, [w.id]);
    const written = (await events()).filter((e) => !e.type.startsWith('subscriber.'));
    expect(written.map((e) => e.type)).toEqual(['workflow.created', 'workflow.updated', 'preference.updated', 'preference.updated', 'workflow.deleted']);
    expect(written[3].data).toMatchObject({ subscriberId: 'cy', workflowId: 'digest', enabled: false, channels: { email: false } });
  });

  it('writes nothing for environments without an endpoint, types an endpoint filters out, or a disabled endpoint', async () => {
    const { other, endpoint, endpoints, env, q, events } = await setup(['message.failed']);
    await q(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'dee'), ($2, 'dee')`, [env, other]);
    expect(await events(other)).toEqual([]);
    expect(await events(env)).toEqual([]);
    await endpoints.update(env, endpoint.id, { enabled: false, eventTypes: [] });
    await q(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'eve')`, [env]);
    expect(await events(env)).toEqual([]);
  });

  it('switches the tables\' webhook triggers and the outbox relay off while no endpoint is enabled anywhere, and on again with the first', async () => {
    const { env, endpoints, q, events } = await setup();
    const capture = async () => (await q('SELECT DISTINCT enabled FROM herald_webhook_capture_triggers()')).rows.map((r) => r.enabled);
    expect((await q('SELECT count(*)::int AS n FROM herald_webhook_capture_triggers()')).rows[0].n).toBe(11);
    expect(await capture()).toEqual([true]);
    for (const e of (await q('SELECT id, environment_id FROM webhook_endpoints')).rows) await endpoints.remove(e.environment_id, e.id);
    expect(await capture()).toEqual([false]);
    const before = (await events()).length;
    const hook = await endpoints.insert(env, { url: 'https://hooks.example/', description: null, eventTypes: [], enabled: false, secret: 'whsec_c2VjcmV0' });
    expect(await capture()).toEqual([false]);
    await endpoints.update(env, hook.id, { enabled: true });
    expect(await capture()).toEqual([true]);
    await q(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'fay')`, [env]);
    expect((await events()).slice(before).map((e) => e.type)).toEqual(['subscriber.created']);
    await endpoints.update(env, hook.id, { enabled: false });
    expect(await capture()).toEqual([false]);
  });
});
