import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, operatorCommand } from './support/operator-command';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { queryDatabase } from './support/workflow-rows';

let svc: TestService;
let identifiers: Record<string, string>;
/** Production's secret key: its Inbox sessions need the subscriber's HMAC made with it. */
let productionKey: string;

const herald = (...args: string[]) => operatorCommand(svc.databaseUrl, ...args);

async function session(applicationIdentifier: string, subscriberId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return fetch(`${svc.url}/v1/inbox/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ applicationIdentifier, subscriber: { subscriberId }, ...extra }),
  });
}

const hmac = (secret: string, subscriberId: string) => createHmac('sha256', secret).update(subscriberId).digest('hex');
const proof = (environment: string, subscriberId: string) => (environment === 'production' ? { subscriberHash: hmac(productionKey, subscriberId) } : {});

async function token(environment: string, subscriberId: string): Promise<string> {
  const response = await session(identifiers[environment], subscriberId, proof(environment, subscriberId));
  expect(response.status).toBe(201);
  return (await response.json()).data.token;
}

const asSubscriber = (bearer: string, path: string, init: RequestInit = {}) =>
  fetch(`${svc.url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

let bobsNotification: string;

beforeAll(async () => {
  svc = await startService();
  const rows = await queryDatabase<{ slug: string; public_identifier: string }>(svc.databaseUrl, 'SELECT slug, public_identifier FROM environments');
  identifiers = Object.fromEntries(rows.map((r) => [r.slug, r.public_identifier]));
  productionKey = await createApiKey(svc.databaseUrl, 'production');
  const workflow = { name: 'Ping', workflowId: 'ping', steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Ping {{payload.n}}' } }] };
  expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
  await token('development', 'ada');
  await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'ping', to: ['ada', 'bob'], payload: { n: 1 } } });
  const [row] = await waitFor(() =>
    queryDatabase<{ id: string }>(svc.databaseUrl, `SELECT m.id FROM messages m JOIN subscribers s ON s.id = m.subscriber_id WHERE s.subscriber_id = 'bob'`).then((r) => (r.length ? r : null)),
  );
  bobsNotification = row.id;
});
afterAll(() => svc?.dispose());

describe('subscriber tokens', () => {
  it('never read or change another subscriber’s inbox', async () => {
    const ada = await token('development', 'ada');
    const list = await (await asSubscriber(ada, '/v1/inbox/notifications')).json();
    expect(list.data.map((n: { to: { subscriberId: string } }) => n.to.subscriberId)).toEqual(['ada']);
    expect(list.data.map((n: { id: string }) => n.id)).not.toContain(bobsNotification);
    expect((await asSubscriber(ada, `/v1/inbox/notifications/${bobsNotification}/read`, { method: 'PATCH' })).status).toBe(404);
    expect((await asSubscriber(ada, `/v1/inbox/notifications/${bobsNotification}/delete`, { method: 'DELETE' })).status).toBe(404);
    await asSubscriber(ada, '/v1/inbox/notifications/read', { method: 'POST', body: JSON.stringify({ notificationIds: [bobsNotification] }) });
    const bobs = await queryDatabase<{ is_read: boolean }>(svc.databaseUrl, 'SELECT is_read FROM messages WHERE id = $1', [bobsNotification]);
    expect(bobs[0].is_read).toBe(false);
  });

  it('never read another environment’s inbox', async () => {
    const adaInProduction = await token('production', 'ada');
    const list = await (await asSubscriber(adaInProduction, '/v1/inbox/notifications')).json();
    expect(list.data).toEqual([]);
    expect((await asSubscriber(adaInProduction, `/v1/inbox/notifications/${bobsNotification}/read`, { method: 'PATCH' })).status).toBe(404);
  });

  it('are required, and forged ones are refused', async () => {
    expect((await fetch(`${svc.url}/v1/inbox/notifications`)).status).toBe(401);
    const ada = await token('development', 'ada');
    const [payload, signature] = ada.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, s: 'bob' })).toString('base64url');
    const response = await asSubscriber(`${forged}.${signature}`, '/v1/inbox/notifications');
    expect(response.status).toBe(401);
    expect((await response.json()).message).toMatch(/not valid/);
    // An API key is not a subscriber token.
    expect((await fetch(`${svc.url}/v1/inbox/notifications`, { headers: { authorization: `ApiKey ${svc.apiKey}` } })).status).toBe(401);
  });
});

describe('per-environment settings from the operator command', () => {
  it('shows the application identifier', async () => {
    expect(await herald('environments')).toContain(identifiers.development);
    const me = await (await svc.request('/v1/environments/me')).json();
    expect(me.data).toMatchObject({ slug: 'development', identifier: identifiers.development, inboxHmac: false, corsOrigins: [] });
  });

  it('allows browser origins per environment (CORS)', async () => {
    const preflight = (origin: string) =>
      fetch(`${svc.url}/v1/inbox/session`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect((await preflight('https://app.example.com')).status).toBe(403);
    await herald('environments', 'set', 'production', '--cors-origins', 'https://app.example.com');
    const allowed = await waitFor(async () => ((await preflight('https://app.example.com')).status === 204 ? preflight('https://app.example.com') : null), 10_000, 500);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const cross = { origin: 'https://app.example.com' };
    const inProduction = await session(identifiers.production, 'ada', proof('production', 'ada'), cross);
    expect(inProduction.status).toBe(201);
    expect(inProduction.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    // The origin is production's, not development's.
    expect((await session(identifiers.development, 'ada', {}, cross)).status).toBe(403);
    const ada = await token('development', 'ada');
    expect((await asSubscriber(ada, '/v1/inbox/notifications', { headers: cross })).status).toBe(403);
  });

  it('requires an HMAC of the subscriber id in production by default', async () => {
    const refused = await session(identifiers.production, 'ada');
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/subscriberHash is required: hex HMAC-SHA256 of the subscriberId/);
    expect((await session(identifiers.production, 'ada', proof('production', 'ada'))).status).toBe(201);
  });

  it('requires an HMAC of the subscriber id once the environment turns it on', async () => {
    expect(await herald('environments', 'set', 'development', '--inbox-hmac', 'on')).toMatch(/inbox HMAC on/);
    const refused = await session(identifiers.development, 'ada');
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/subscriberHash/);
    const wrong = createHmac('sha256', svc.apiKey).update('bob').digest('hex');
    expect((await session(identifiers.development, 'ada', { subscriberHash: wrong })).status).toBe(401);
    const right = createHmac('sha256', svc.apiKey).update('ada').digest('hex');
    expect((await session(identifiers.development, 'ada', { subscriberHash: right })).status).toBe(201);
    await herald('environments', 'set', 'development', '--inbox-hmac', 'off');
  });
});
