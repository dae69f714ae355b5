import { createHmac } from 'node:crypto';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, operatorCommand } from './support/operator-command';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { queryDatabase } from './support/workflow-rows';

/** Tests that run the operator command (a Node process under tsx, seconds each on a loaded machine). */
const CLI_TEST_MS = 120_000;

let svc: TestService;
let peer: TestService;
let identifiers: Record<string, string>;
let productionKey: string;

const herald = (...args: string[]) => operatorCommand(svc.databaseUrl, ...args);

const hash = (secret: string, subscriberId: string) => createHmac('sha256', secret).update(subscriberId).digest('hex');

function session(environment: string, subscriber: Record<string, unknown>, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return fetch(`${svc.url}/v1/inbox/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ applicationIdentifier: identifiers[environment], subscriber, ...extra }),
  });
}

async function token(environment: string, subscriberId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await session(environment, { subscriberId }, extra);
  expect(response.status).toBe(201);
  return (await response.json()).data.token;
}

const inboxStatus = async (on: TestService, bearer: string) => (await fetch(`${on.url}/v1/inbox/notifications`, { headers: { authorization: `Bearer ${bearer}` } })).status;

/** The subscriber as the API reads it back (404 when it does not exist). */
async function stored(subscriberId: string, apiKey = svc.apiKey) {
  const response = await svc.request(`/v2/subscribers/${subscriberId}`, { headers: { authorization: `ApiKey ${apiKey}` } });
  return { status: response.status, data: response.status === 200 ? (await response.json()).data : undefined };
}

beforeAll(async () => {
  // Started as a production deployment starts: NODE_ENV=production changes none of what follows.
  svc = await startService({ NODE_ENV: 'production' });
  const rows = await queryDatabase<{ slug: string; public_identifier: string }>(svc.databaseUrl, 'SELECT slug, public_identifier FROM environments');
  identifiers = Object.fromEntries(rows.map((r) => [r.slug, r.public_identifier]));
  productionKey = await createApiKey(svc.databaseUrl, 'production');
  peer = await svc.startPeer();
});
afterAll(async () => {
  await peer?.stop();
  await svc?.dispose();
});

describe('Production Inbox sessions', () => {
  it('are refused without subscriberHash, with the way to compute it, and nothing is written', async () => {
    const refused = await session('production', { subscriberId: 'ada', firstName: 'Ada' });
    expect(refused.status).toBe(401);
    const body = await refused.json();
    expect(body).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED', errors: { subscriberHash: { messages: [expect.stringMatching(/pass the hash to the Inbox as subscriberHash/)] } } });
    expect(body.message).toMatch(/^subscriberHash is required: hex HMAC-SHA256 of the subscriberId keyed with the environment's secret API key.*createHmac\('sha256', secretKey\)\.update\(subscriberId\)\.digest\('hex'\)/);
    expect((await session('production', { subscriberId: 'ada' }, { subscriberHash: hash(productionKey, 'bob') })).status).toBe(401);
    expect((await stored('ada', productionKey)).status).toBe(404);
  });

  it('start with the HMAC made with the environment’s secret key, and may then create the subscriber with its profile', async () => {
    const started = await session('production', { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' }, { subscriberHash: hash(productionKey, 'ada') });
    expect(started.status).toBe(201);
    expect((await stored('ada', productionKey)).data).toMatchObject({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' });
  });
});

describe('a session that is not HMAC-verified', () => {
  it('creates the subscriber id alone: no caller-chosen profile is stored', async () => {
    const profile = { subscriberId: 'mallory', firstName: '<img src=x onerror=alert(1)>', email: 'attacker@example.com', phone: '+15550100', data: { isAdmin: true }, timezone: 'Europe/Paris' };
    expect((await session('development', profile)).status).toBe(201);
    const { data } = await stored('mallory');
    expect(data.subscriberId).toBe('mallory');
    for (const field of ['firstName', 'email', 'phone', 'data', 'timezone']) expect(data[field] ?? null).toBeNull();
  });

  it('from a browser origin the environment does not allow is refused with 403 before anything is written', async () => {
    await herald('environments', 'set', 'development', '--cors-origins', 'https://app.example.com');
    const refused = await session('development', { subscriberId: 'from-evil' }, {}, { origin: 'https://evil.example.com' });
    expect(refused.status).toBe(403);
    expect((await stored('from-evil')).status).toBe(404);
    expect((await session('development', { subscriberId: 'from-app' }, {}, { origin: 'https://app.example.com' })).status).toBe(201);
    expect((await stored('from-app')).status).toBe(200);
  }, CLI_TEST_MS);
});

describe('changing an environment’s Inbox security', () => {
  it('ends the tokens issued before it, on every process, once the HMAC is turned on', async () => {
    const before = await token('development', 'ada');
    expect(await inboxStatus(svc, before)).toBe(200);
    expect(await inboxStatus(peer, before)).toBe(200);
    const socket = io(svc.url, { transports: ['websocket'], query: { token: before }, reconnection: false });
    await new Promise<void>((resolve, reject) => socket.on('connect', resolve).on('connect_error', reject));
    const dropped = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));

    expect(await herald('environments', 'set', 'development', '--inbox-hmac', 'on')).toMatch(/inbox HMAC on/);
    await waitFor(async () => (await inboxStatus(svc, before)) === 401 && (await inboxStatus(peer, before)) === 401, 15_000, 250);
    await dropped;
    socket.close();
    const after = await token('development', 'ada', { subscriberHash: hash(svc.apiKey, 'ada') });
    expect(await inboxStatus(svc, after)).toBe(200);
    expect(await inboxStatus(peer, after)).toBe(200);
  }, CLI_TEST_MS);

  it('ends the tokens issued before the allowed origins change', async () => {
    const before = await token('development', 'ada', { subscriberHash: hash(svc.apiKey, 'ada') });
    expect(await inboxStatus(peer, before)).toBe(200);
    await herald('environments', 'set', 'development', '--cors-origins', 'https://other.example.com');
    await waitFor(async () => (await inboxStatus(svc, before)) === 401 && (await inboxStatus(peer, before)) === 401, 15_000, 250);
  }, CLI_TEST_MS);

  it('can turn Production’s requirement off only explicitly, and the command says what that exposes', async () => {
    const output = await herald('environments', 'set', 'production', '--inbox-hmac', 'off');
    expect(output).toMatch(/inbox HMAC off/);
    expect(output).toMatch(/WARNING: .*anyone who has its application identifier.*can open any subscriber's Inbox/);
    expect((await session('production', { subscriberId: 'walk-in' })).status).toBe(201);
    await herald('environments', 'set', 'production', '--inbox-hmac', 'on');
    expect((await session('production', { subscriberId: 'walk-in' })).status).toBe(401);
  }, CLI_TEST_MS);
});
