import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Novu } from '@novu/api';
import { verifyRequestSignature } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Outbound channels and HTTP steps, against a loopback HTTP server standing in for the outside world.
let svc: TestService;
let novu: Novu;
let server: Server;
let base: string;
const received: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];
let failuresLeft = 0;

async function jobs(transactionId: string) {
  const rows = await queryDatabase<{ step_id: string; status: string; output: unknown; details: string[] }>(
    svc.databaseUrl,
    `SELECT j.step_id, j.status, j.output, ARRAY(SELECT d.detail FROM execution_details d WHERE d.job_id = j.id ORDER BY d.seq) AS details
     FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = $1 ORDER BY j.position`,
    [transactionId],
  );
  return rows.length && rows.every((r) => !['pending', 'queued', 'running', 'delayed'].includes(r.status)) ? rows : null;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/flaky') && failuresLeft-- > 0) return void res.writeHead(503).end('try later');
      if (req.url?.startsWith('/broken')) return void res.writeHead(400).end('bad');
      res.writeHead(200, { 'content-type': 'application/json', 'x-message-id': 'hook-1' }).end(JSON.stringify({ ok: true, echo: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Retries back off 200 ms, then 400 ms (no jitter) instead of minutes.
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_RETRY_POLICY: '{"initialDelayMs":200,"jitter":0}' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
});
afterAll(async () => {
  await svc?.dispose();
  server?.close();
});

describe('email and sms through the built-in outbox sinks', () => {
  it('renders and delivers into the outbox, readable through the API; a subscriber without an address is skipped', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'receipt' }, [
      { type: 'email', stepId: 'mail', controlValues: { subject: 'Receipt {{payload.orderId}}', body: '<p>Thanks {{subscriber.firstName}}</p>' } },
      { type: 'sms', stepId: 'text', controlValues: { body: 'Order {{payload.orderId}} paid' } },
    ]);
    await novu.subscribers.create({ subscriberId: 'buyer', firstName: 'Ada', email: 'ada@example.com' });
    await novu.trigger({ workflowId: 'receipt', to: 'buyer', payload: { orderId: 'R-9' }, transactionId: 'tx-receipt' });
    const rows = await waitFor(() => jobs('tx-receipt'));
    expect(rows.map((r) => [r.step_id, r.status, r.details[0]])).toEqual([
      ['mail', 'completed', expect.stringMatching(/^sent via herald-email \(herald-email\), message id outbox-/)],
      ['text', 'skipped', 'skipped: subscriber buyer has no phone number'],
    ]);
    const outbox = await (await svc.request('/v1/outbox?channel=email&to=ada@example.com')).json();
    expect(outbox.data).toEqual([expect.objectContaining({ subject: 'Receipt R-9', body: '<p>Thanks Ada</p>', to: 'ada@example.com', transactionId: 'tx-receipt' })]);
  });

  it('retries a real integration that fails twice with backoff, and never falls back to the development sink', async () => {
    failuresLeft = 2;
    const flaky = await novu.integrations.create({ providerId: 'email-webhook', channel: 'email', name: 'Flaky', identifier: 'flaky', credentials: { webhookUrl: `${base}/flaky` }, active: true });
    await novu.integrations.setAsPrimary(flaky.result.id!);
    await novu.subscribers.create({ subscriberId: 'fo', email: 'fo@example.com' });
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'failover' }, [{ type: 'email', stepId: 'mail', controlValues: { subject: 'S', body: 'B' } }]);
    // Workers read an environment's integrations at most every 2 s; let the new primary become visible.
    await new Promise((r) => setTimeout(r, 2_100));
    await novu.trigger({ workflowId: 'failover', to: 'fo', transactionId: 'tx-failover' });
    const [row] = await waitFor(() => jobs('tx-failover'));
    expect(row.status).toBe('completed');
    expect(row.details).toEqual([
      'provider error: email-webhook (flaky): answered 503: webhook refused the message [503] (attempt 1, retrying in 200 ms)',
      'provider error: email-webhook (flaky): answered 503: webhook refused the message [503] (attempt 2, retrying in 400 ms)',
      'sent via email-webhook (flaky), message id hook-1',
    ]);
    expect(received.filter((r) => r.path === '/flaky')).toHaveLength(3);
  });
});

describe('channel settings carried by a recipient in `to`', () => {
  it('stores them on the subscriber, merged per integration, and delivers chat to that webhook', async () => {
    await novu.integrations.create({ providerId: 'chat-webhook', channel: 'chat', identifier: 'team-chat', active: true });
    await novu.integrations.create({ providerId: 'push-webhook', channel: 'push', identifier: 'phones', credentials: { webhookUrl: `${base}/push` }, active: true });
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'alert' }, [{ type: 'chat', stepId: 'chat', controlValues: { body: 'Alert {{payload.level}}' } }]);
    await novu.subscribers.create({ subscriberId: 'oncall', firstName: 'Grace' });
    await svc.request('/v1/events/trigger', {
      method: 'POST',
      json: { name: 'alert', to: { subscriberId: 'oncall', channels: [{ providerId: 'push-webhook', credentials: { deviceTokens: ['t1', 't2'] } }] }, transactionId: 'tx-push-only' },
    });
    // Its chat step finishes first (with no webhook yet): run after the next trigger stored one, it
    // would post its own payload-less "Alert " to that webhook too.
    await waitFor(() => jobs('tx-push-only'));
    const res = await svc.request('/v1/events/trigger', {
      method: 'POST',
      json: {
        name: 'alert',
        payload: { level: 'high' },
        transactionId: 'tx-recipient-chat',
        to: [{
          subscriberId: 'oncall',
          channels: [
            { providerId: 'chat-webhook', integrationIdentifier: 'team-chat', credentials: { webhookUrl: `${base}/chat/oncall` } },
            { providerId: 'push-webhook', credentials: { deviceTokens: ['t2', 't3'] } },
          ],
        }],
      },
    });
    expect(res.status).toBe(201);
    const [row] = await waitFor(() => jobs('tx-recipient-chat'));
    expect(row.status).toBe('completed');
    expect(row.details[0]).toMatch(/^sent via chat-webhook \(team-chat\)/);
    const hook = received.find((r) => r.path === '/chat/oncall')!;
    expect(JSON.parse(hook.body)).toMatchObject({ channel: 'chat', body: 'Alert high', to: { subscriberId: 'oncall', webhookUrl: `${base}/chat/oncall` } });

    const { result } = await novu.subscribers.retrieve('oncall');
    const settings = Object.fromEntries((result.channels ?? []).map((c) => [c.providerId, c]));
    expect(settings['push-webhook']).toMatchObject({ integrationIdentifier: 'phones', credentials: { deviceTokens: ['t1', 't2', 't3'] } });
    expect(settings['chat-webhook']).toMatchObject({ integrationIdentifier: 'team-chat', credentials: { webhookUrl: `${base}/chat/oncall` } });
    expect(result.firstName).toBe('Grace');

    // Stored encrypted, each value on its own (docs/configuration.md#encryption-at-rest): no token or URL in the row.
    const stored = async () => JSON.stringify((await queryDatabase<{ channels: unknown }>(svc.databaseUrl, "SELECT channels FROM subscribers WHERE subscriber_id = 'oncall'"))[0].channels);
    for (const secret of ['"t1"', '"t2"', '"t3"', '/chat/oncall']) expect(await stored()).not.toContain(secret);
    // A value altered in the database is never used nor shown: a clear 409 naming the subscriber.
    await queryDatabase(svc.databaseUrl, `UPDATE subscribers SET channels = jsonb_set(channels, '{0,credentials,deviceTokens,0}', to_jsonb((channels #>> '{0,credentials,deviceTokens,0}') || 'AA')) WHERE subscriber_id = 'oncall'`);
    const altered = await svc.request('/v2/subscribers/oncall');
    expect(altered.status).toBe(409);
    const body = await altered.text();
    expect(JSON.parse(body)).toMatchObject({ statusCode: 409, message: expect.stringMatching(/subscriber oncall cannot be decrypted.*altered/) });
    expect(body).not.toContain('/chat/oncall');
  });

  it('refuses settings for an integration the environment does not have, naming the setting', async () => {
    const res = await svc.request('/v1/events/trigger', {
      method: 'POST',
      json: { name: 'alert', to: [{ subscriberId: 'x', channels: [{ providerId: 'chat-webhook', integrationIdentifier: 'nope', credentials: { webhookUrl: `${base}/x` } }] }] },
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors)).toEqual(['to.x.channels.0.providerId']);
  });
});

describe('http_request steps', () => {
  it('calls the URL signed with the environment secret, and later steps read the response', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'hook' }, [
      { type: 'http_request', stepId: 'call', controlValues: { url: `${base}/hook`, method: 'POST', body: [{ key: 'order', value: '{{payload.orderId}}' }] } },
      { type: 'in_app', stepId: 'note', controlValues: { body: 'Remote said {{steps.call.body.ok}} for {{steps.call.body.echo.order}}' } },
    ]);
    await novu.trigger({ workflowId: 'hook', to: 'hooked', payload: { orderId: 'H-1' }, transactionId: 'tx-hook' });
    const rows = await waitFor(() => jobs('tx-hook'));
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed']);
    const call = received.find((r) => r.path === '/hook')!;
    const [{ signing_secret: secret }] = await queryDatabase<{ signing_secret: string }>(svc.databaseUrl, "SELECT signing_secret FROM environments WHERE slug = 'development'");
    expect(verifyRequestSignature(secret, call.body, String(call.headers['herald-signature']))).toBe(true);
    const [message] = await queryDatabase<{ body: string }>(svc.databaseUrl, "SELECT body FROM messages WHERE transaction_id = 'tx-hook'");
    expect(message.body).toBe('Remote said true for H-1');
  });

  it('stops the workflow when the endpoint answers an error', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'hook-broken' }, [
      { type: 'http_request', stepId: 'call', controlValues: { url: `${base}/broken`, method: 'POST' } },
      { type: 'in_app', stepId: 'after', controlValues: { body: 'never' } },
    ]);
    await novu.trigger({ workflowId: 'hook-broken', to: 'hooked', transactionId: 'tx-broken' });
    const rows = await waitFor(() => jobs('tx-broken'));
    expect(rows.map((r) => [r.status, r.details[0]])).toEqual([
      ['failed', `POST ${base}/broken answered 400`],
      ['canceled', undefined],
    ]);
  });
});
