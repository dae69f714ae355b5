import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardClient, dashboardPost, invited, setUpAdmin, type DashboardClient } from './support/dashboard';
import { fillPath, operationsOf, type OpenApiDocument, type Operation } from './support/openapi';
import { startService, type TestService } from './support/service';

// The dashboard session's security over HTTP, swept over every operation /openapi.json documents:
// no change from another origin (CSRF), no change by a viewer, and no secret in any response a
// dashboard session can read.
let svc: TestService;
let admin: DashboardClient;
let viewer: DashboardClient;
let operations: Operation[];
let db: pg.Client;
const EVIL = 'http://evil.example';
const SMTP_PASSWORD = 'smtp-password-hunter2';

// The Inbox's routes take a subscriber token, and providers' receipts their own signature, never the cookie:
// not part of the sweep.
const cookieRoutes = (op: Operation) => !op.path.startsWith('/v1/inbox/') && !op.path.startsWith('/v1/receipts/');
const changes = (op: Operation) => op.method !== 'GET';
const OPEN_ROUTES = new Set(['/v1/dashboard/setup', '/v1/dashboard/sign-in', '/v1/dashboard/invitations/inspect', '/v1/dashboard/invitations/accept']);
// What a viewer may send besides reads: their own session's routes, and a step preview (stores nothing).
const VIEWER_MAY = new Set(['POST /v1/dashboard/sign-out', 'PUT /v1/dashboard/me/password', 'POST /v2/workflows/{workflowId}/step/{stepId}/preview']);

beforeAll(async () => {
  svc = await startService();
  db = new pg.Client({ connectionString: svc.databaseUrl });
  await db.connect();
  operations = operationsOf((await (await fetch(`${svc.url}/openapi.json`)).json()) as OpenApiDocument);
  admin = await setUpAdmin(svc);
  viewer = await invited(svc, admin, 'viewer@example.com', 'viewer');
  const seed = async (path: string, json: unknown) => expect((await admin.request(path, { method: 'POST', json })).status).toBeLessThan(300);
  await seed('/v2/subscribers', { subscriberId: 'known', email: 'known@example.com' });
  await seed('/v2/topics', { key: 'known-topic', name: 'Known' });
  await seed('/v2/workflows', { workflowId: 'known-workflow', name: 'Known', steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' } }] });
  await seed('/v1/integrations', {
    providerId: 'nodemailer',
    name: 'SMTP',
    identifier: 'smtp',
    credentials: { host: 'smtp.example.com', port: '587', user: 'mailer', password: SMTP_PASSWORD, from: 'shop@example.com' },
  });
  await seed('/v1/events/trigger', { name: 'known-workflow', to: 'known' });
});
afterAll(async () => {
  await db?.end();
  await svc?.dispose();
});

/** Everything a refused request must leave as it was. */
async function snapshot(): Promise<unknown> {
  const counts = await db.query(`SELECT
    (SELECT count(*) FROM subscribers) AS subscribers, (SELECT count(*) FROM topics) AS topics, (SELECT count(*) FROM workflows) AS workflows,
    (SELECT count(*) FROM integrations WHERE NOT deleted) AS integrations, (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS keys,
    (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM dashboard_users) AS users, (SELECT count(*) FROM dashboard_invitations) AS invitations,
    (SELECT count(*) FROM dashboard_sessions) AS sessions, (SELECT json_agg(json_build_array(inbox_hmac, cors_origins, retry_policy) ORDER BY id) FROM environments) AS settings`);
  return counts.rows[0];
}

function send(client: DashboardClient, op: Operation, headers: Record<string, string>) {
  const path = fillPath(op.path, {});
  return client.request(path, { method: op.method, headers, ...(op.body ? { json: {} } : {}) });
}

describe('CSRF: a dashboard cookie changes nothing from another origin', () => {
  it.each([
    ['a foreign Origin', { origin: EVIL }],
    ['a foreign Referer and no Origin', { origin: 'none', referer: `${EVIL}/page` }],
  ])('every operation but GET is refused (403) with %s', async (_, headers) => {
    const before = await snapshot();
    const refused: string[] = [];
    const sent = operations.filter((op) => cookieRoutes(op) && changes(op));
    for (const op of sent) {
      const res = await send(admin, op, headers);
      if (res.status === 403) refused.push(`${op.method} ${op.path}`);
    }
    expect(refused).toEqual(sent.map((op) => `${op.method} ${op.path}`));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a change with the cookie and neither Origin nor Referer, except on the routes open to anyone', async () => {
    const before = await snapshot();
    for (const op of operations.filter((o) => cookieRoutes(o) && changes(o) && !OPEN_ROUTES.has(o.path))) {
      expect([op.path, (await send(admin, op, { origin: 'none' })).status]).toEqual([op.path, 403]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets no other origin read an answer: no CORS for the API outside the subscriber inbox', async () => {
    for (const path of ['/v1/notifications', '/v2/subscribers', '/v1/dashboard/me', '/v1/environments/me/api-keys']) {
      const res = await admin.request(path, { headers: { origin: EVIL } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('roles', () => {
  it("a viewer's change is a 403 on every operation, before anything is read or written", async () => {
    const before = await snapshot();
    const sent = operations.filter((op) => cookieRoutes(op) && changes(op) && !OPEN_ROUTES.has(op.path) && !VIEWER_MAY.has(`${op.method} ${op.path}`));
    const statuses = await Promise.all(sent.map(async (op) => `${op.method} ${op.path} ${(await send(viewer, op, {})).status}`));
    expect(statuses).toEqual(sent.map((op) => `${op.method} ${op.path} 403`));
    expect(await snapshot()).toEqual(before);
  });

  it('a viewer reads, and previews a step', async () => {
    expect((await viewer.request('/v2/subscribers/known')).status).toBe(200);
    expect((await viewer.request('/v1/overview')).status).toBe(200);
    const workflow = ((await (await viewer.request('/v2/workflows/known-workflow')).json()) as { data: { steps: Array<{ stepId: string }> } }).data;
    const preview = await viewer.request(`/v2/workflows/known-workflow/step/${workflow.steps[0].stepId}/preview`, { method: 'POST', json: {} });
    expect(preview.status).toBe(201);
  });

  it('an API key manages no key and changes no environment setting; a dashboard admin does', async () => {
    for (const [method, path, json] of [
      ['POST', '/v1/environments/me/api-keys', undefined],
      ['PATCH', '/v1/environments/me', { inboxHmac: true }],
      ['PUT', '/v1/environments/me/retry-policy', { maxAttempts: 3 }],
      ['DELETE', '/v1/environments/me/retry-policy', undefined],
    ] as const) {
      expect((await svc.request(path, { method, json })).status).toBe(403);
    }
    expect((await admin.request('/v1/environments/me/retry-policy', { method: 'PUT', json: { maxAttempts: 3 } })).status).toBe(200);
    expect((await admin.request('/v1/environments/me/retry-policy', { method: 'DELETE' })).status).toBe(200);
  });
});

describe('secrets', () => {
  it('no dashboard-reachable answer holds a credential, a key secret after creation, a password hash or a session token', async () => {
    const created = await admin.request('/v1/environments/me/api-keys', { method: 'POST' });
    expect(created.status).toBe(201);
    const { key } = ((await created.json()) as { data: { key: string } }).data;
    const invitation = await admin.request('/v1/dashboard/invitations', { method: 'POST', json: { email: 'later@example.com', role: 'viewer' } });
    const { token } = ((await invitation.json()) as { data: { token: string } }).data;
    const hashes = (await db.query('SELECT password_hash FROM dashboard_users')).rows.map((r) => r.password_hash as string);
    const signing = (await db.query('SELECT signing_secret FROM environments')).rows.map((r) => r.signing_secret as string);
    const cookieValue = (c: DashboardClient) => c.cookie.split('=')[1];
    const secrets = { SMTP_PASSWORD, key, apiKey: svc.apiKey, token, ...hashes, ...signing, admin: cookieValue(admin), viewer: cookieValue(viewer) };

    const known: Record<string, string> = { subscriberId: 'known', topicKey: 'known-topic', workflowId: 'known-workflow', identifier: 'smtp', integrationId: 'smtp' };
    const reads = operations.filter((op) => cookieRoutes(op) && op.method === 'GET');
    const bodies: string[] = [];
    for (const client of [admin, viewer, dashboardClient(svc, admin.cookie, admin.me, 'production')]) {
      for (const op of reads) bodies.push(`${op.path}: ${await (await client.request(fillPath(op.path, known))).text()}`);
    }
    const integrations = bodies.find((b) => b.startsWith('/v1/integrations: '))!;
    expect(integrations).toContain('"identifier":"smtp"');
    const keys = bodies.find((b) => b.startsWith('/v1/environments/me/api-keys: '))!;
    expect(keys).toContain(key.slice(0, 6));
    for (const body of bodies) {
      for (const [name, secret] of Object.entries(secrets)) expect(body.includes(secret), `${name} in ${body.slice(0, 120)}`).toBe(false);
      expect(body).not.toContain('scrypt$');
    }
  });

  it('a session cookie is set only by setup, sign-in and an accepted invitation', async () => {
    for (const op of operations.filter((o) => cookieRoutes(o) && o.method === 'GET')) {
      expect((await admin.request(fillPath(op.path, {}))).headers.get('set-cookie')).toBeNull();
    }
  });

  it('idempotency stays with API keys: a session request with an Idempotency-Key is not replayed', async () => {
    const body = { subscriberId: 'idem-session' };
    const first = await admin.request('/v2/subscribers', { method: 'POST', json: body, headers: { 'idempotency-key': 'dashboard-1' } });
    const second = await admin.request('/v2/subscribers', { method: 'POST', json: body, headers: { 'idempotency-key': 'dashboard-1' } });
    expect([first.status, first.headers.get('idempotency-key'), second.headers.get('idempotency-replay')]).toEqual([201, null, null]);
    expect((await db.query("SELECT count(*)::int AS n FROM idempotency_records WHERE key = 'dashboard-1'")).rows[0].n).toBe(0);
  });

  it('refuses a public route from another site, but not from a client that is not a browser', async () => {
    expect((await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: 'x' }, { origin: EVIL })).status).toBe(403);
    const curl = await fetch(`${svc.url}/v1/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password here' }) });
    expect(curl.status).toBe(401);
  });
});
