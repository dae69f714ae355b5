import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Novu } from '@novu/api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';

let svc: TestService;
let novu: Novu;
let db: pg.Client;
let dataDir: string;

const smtp = { host: 'smtp.example.com', port: '2525', from: 'no-reply@example.com', user: 'mailer', password: 'smtp-pass-123' };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'herald-e2e-data-'));
  svc = await startService({ HERALD_DATA_DIR: dataDir });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  db = new pg.Client({ connectionString: svc.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await svc?.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

async function errorOf(response: Response) {
  return { status: response.status, body: (await response.json()) as { message: string; errors?: Record<string, unknown> } };
}

describe('integrations through the @novu/api SDK', () => {
  it('starts every environment with the in-app integration, and only Development with the email and SMS sinks', async () => {
    const { result } = await novu.integrations.list();
    expect(result.map((i) => [i.identifier, i.providerId, i.channel, i.primary, i.active])).toEqual([
      ['herald', 'herald', 'in_app', true, true],
      ['herald-email', 'herald-email', 'email', true, true],
      ['herald-sms', 'herald-sms', 'sms', true, true],
    ]);
    const { rows } = await db.query<{ environment_id: string; n: number }>(
      `SELECT e.slug, count(*)::int AS n FROM integrations i JOIN environments e ON e.id = i.environment_id
       WHERE provider_id LIKE 'herald%' AND NOT i.deleted GROUP BY e.slug ORDER BY e.slug`,
    );
    // Production has no sink: there a message really goes out, or fails visibly.
    expect(rows.map((r) => [r.slug, r.n])).toEqual([['development', 3], ['production', 1]]);
  });

  it('creates an integration that takes primary from the sink, and never returns its credentials', async () => {
    const { result } = await novu.integrations.create({ providerId: 'nodemailer', name: 'Company SMTP', identifier: 'company-smtp', credentials: smtp });
    expect(result).toMatchObject({ identifier: 'company-smtp', channel: 'email', kind: 'delivery', active: true, primary: true, deleted: false });
    expect(result.credentials).toBeUndefined();
    expect(result.id).toBeTruthy();

    const raw = await (await svc.request('/v1/integrations')).text();
    expect(raw).not.toContain('smtp-pass-123');
    expect(raw).not.toContain('"credentials"');
    const email = (await novu.integrations.listActive()).result.filter((i) => i.channel === 'email');
    expect(email.map((i) => [i.identifier, i.primary])).toEqual([
      ['herald-email', false],
      ['company-smtp', true],
    ]);
  });

  it('answers 422 naming the credential field a provider needs, and the bad condition field', async () => {
    const missing = await errorOf(await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'twilio', credentials: { accountSid: 'AC1', from: '+14155550100' } } }));
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors ?? {})).toEqual(['credentials.token']);
    expect(missing.body.message).toContain('credentials.token');

    const badPort = await errorOf(await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'nodemailer', credentials: { ...smtp, port: 'abc' } } }));
    expect(Object.keys(badPort.body.errors ?? {})).toEqual(['credentials.port']);

    const condition = { isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'NEAR', on: 'payload' }] };
    const badCondition = await errorOf(await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'herald-email', conditions: [condition] } }));
    expect(badCondition.status).toBe(422);
    expect(Object.keys(badCondition.body.errors ?? {})).toEqual(['conditions.0.children.0.operator']);

    const unknown = await errorOf(await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'carrier-pigeon' } }));
    expect([unknown.status, Object.keys(unknown.body.errors ?? {})]).toEqual([422, ['providerId']]);

    await expect(novu.integrations.create({ providerId: 'sendgrid', credentials: { from: 'a@example.com' } })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('updates with merged credentials, stores conditions, and moves primary with set-primary', async () => {
    const conditions = [
      { isNegated: false, type: 'TEXT' as const, value: 'AND' as const, children: [{ field: 'region', value: 'eu', operator: 'EQUAL' as const, on: 'payload' as const }] },
    ];
    const second = (
      await novu.integrations.create({ providerId: 'sendgrid', identifier: 'sendgrid-eu', credentials: { apiKey: 'SG.key-456', from: 'eu@example.com' }, conditions })
    ).result;
    expect(second.primary).toBe(false);
    expect(second.conditions).toEqual(conditions);

    const updated = (await novu.integrations.update({ name: 'SendGrid EU', credentials: { from: 'news@example.com' } }, second.id!)).result;
    expect(updated.name).toBe('SendGrid EU');
    await expect(novu.integrations.update({ credentials: { apiKey: '' } }, second.id!)).rejects.toMatchObject({ statusCode: 422 });

    const primary = (await novu.integrations.setAsPrimary(second.id!)).result;
    expect(primary).toMatchObject({ identifier: 'sendgrid-eu', primary: true, active: true });
    const email = (await novu.integrations.list()).result.filter((i) => i.channel === 'email' && i.primary);
    expect(email.map((i) => i.identifier)).toEqual(['sendgrid-eu']);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM integrations WHERE channel = 'email' AND "primary" AND NOT deleted`);
    expect(rows[0].n).toBe(1); // Development's; Production has no email integration yet
    await expect(novu.integrations.setAsPrimary(randomUUID())).rejects.toMatchObject({ statusCode: 404 });
  });

  it('deletes softly and irreversibly, answering with the remaining integrations', async () => {
    const target = (await novu.integrations.create({ providerId: 'resend', identifier: 'to-delete', credentials: { apiKey: 're_1', from: 'x@example.com' } })).result;
    const { result } = await novu.integrations.delete(target.id!);
    expect(result.map((i) => i.identifier)).not.toContain('to-delete');
    expect(result.map((i) => i.identifier)).toContain('herald-email');
    const { rows } = await db.query('SELECT deleted, deleted_at IS NOT NULL AS stamped, "primary" FROM integrations WHERE id = $1', [target.id]);
    expect(rows).toEqual([{ deleted: true, stamped: true, primary: false }]);
    await expect(novu.integrations.delete(target.id!)).rejects.toMatchObject({ statusCode: 404 });
    // The identifier is free again for a new integration.
    const again = await novu.integrations.create({ providerId: 'resend', identifier: 'to-delete', credentials: { apiKey: 're_2', from: 'x@example.com' } });
    expect(again.result.id).not.toBe(target.id);
  });
});

describe('the development outbox', () => {
  it('lists what the sinks delivered, newest first, filtered by channel and recipient', async () => {
    const [{ id: environmentId }] = (await db.query(`SELECT environment_id AS id FROM integrations WHERE identifier = 'company-smtp'`)).rows;
    const subscriberRow = (
      await db.query(`INSERT INTO subscribers (environment_id, subscriber_id, updated_at) VALUES ($1, 'outbox-sub', now()) RETURNING id`, [environmentId])
    ).rows[0].id;
    const insert = (channel: string, providerId: string, destination: unknown, body: string, at: string) =>
      db.query(
        `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, destination, subject, body, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'tx-outbox', $5, $6, $7, 'Hello', $8, $9, $9)`,
        [environmentId, randomUUID(), randomUUID(), subscriberRow, channel, providerId, JSON.stringify(destination), body, at],
      );
    await insert('email', 'herald-email', { to: 'ada@example.com' }, 'first', '2024-01-01T00:00:00Z');
    await insert('email', 'herald-email', { to: 'bob@example.com' }, 'second', '2024-01-02T00:00:00Z');
    await insert('sms', 'herald-sms', '+14155550123', 'code 1234', '2024-01-03T00:00:00Z');
    await insert('email', 'sendgrid', { to: 'ada@example.com' }, 'real provider', '2024-01-04T00:00:00Z');

    const all = await (await svc.request('/v1/outbox')).json();
    expect(all.data.map((m: { body: string }) => m.body)).toEqual(['code 1234', 'second', 'first']);
    expect(all).toMatchObject({ totalCount: 3, next: null, totalCountCapped: false });

    const ada = await (await svc.request('/v1/outbox?channel=email&to=ada%40example.com')).json();
    expect(ada.data).toEqual([expect.objectContaining({ body: 'first', to: 'ada@example.com', subscriberId: 'outbox-sub', providerId: 'herald-email', transactionId: 'tx-outbox' })]);
    const sms = await (await svc.request('/v1/outbox?channel=sms&to=%2B14155550123')).json();
    expect(sms.data.map((m: { to: string }) => m.to)).toEqual(['+14155550123']);

    const page = await (await svc.request('/v1/outbox?limit=2&orderDirection=ASC')).json();
    expect(page.data.map((m: { body: string }) => m.body)).toEqual(['first', 'second']);
    const rest = await (await svc.request(`/v1/outbox?limit=2&orderDirection=ASC&after=${page.next}`)).json();
    expect(rest.data.map((m: { body: string }) => m.body)).toEqual(['code 1234']);
    expect((await svc.request('/v1/outbox?channel=push')).status).toBe(422);
  });
});

describe('the encryption key', () => {
  it('is generated once into the data directory and reused after a restart', async () => {
    const keyFile = join(dataDir, 'encryption.key');
    const before = await stat(keyFile);
    expect(before.mode & 0o777).toBe(0o600);
    await svc.stop();
    await svc.restart();
    expect((await stat(keyFile)).mtimeMs).toBe(before.mtimeMs);
    novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
    // Merging new credentials over the stored ones needs the old ones decrypted with the same key.
    const updated = await novu.integrations.update({ credentials: { port: '587' } }, 'company-smtp');
    expect(updated.result.identifier).toBe('company-smtp');
  });
});

describe('the OpenAPI document', () => {
  it('describes the integration, outbox, connection and endpoint routes', async () => {
    const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/integrations/{integrationId}']).sort()).toEqual(['delete', 'put']);
    expect(doc.paths['/v1/integrations/{integrationId}/set-primary']).toHaveProperty('post');
    expect(doc.paths['/v1/outbox']).toHaveProperty('get');
    expect(Object.keys(doc.paths['/v1/channel-endpoints/{identifier}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.paths['/v1/channel-connections']).sort()).toEqual(['get', 'post']);
  });
});

describe('SERVICE_NAME', () => {
  it('names the built-in providers after the service', async () => {
    const acme = await startService({ SERVICE_NAME: 'acme' });
    try {
      const { result } = await new Novu({ secretKey: acme.apiKey, serverURL: acme.url }).integrations.list();
      expect(result.map((i) => i.providerId)).toEqual(['acme', 'acme-email', 'acme-sms']);
      const refused = await acme.request('/v1/integrations', { method: 'POST', json: { providerId: 'herald-email' } });
      expect(refused.status).toBe(422);
    } finally {
      await acme.dispose();
    }
  });
});
