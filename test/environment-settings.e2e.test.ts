import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invited, setUpAdmin, type DashboardClient } from './support/dashboard';
import { startService, type TestService } from './support/service';

// The environment's API keys, Inbox security and retry policy through the API, as the dashboard's
// Environments page uses them.
let svc: TestService;
let admin: DashboardClient;
let viewer: DashboardClient;

beforeAll(async () => {
  svc = await startService();
  admin = await setUpAdmin(svc);
  viewer = await invited(svc, admin, 'viewer@example.com', 'viewer');
});
afterAll(() => svc?.dispose());

describe('API keys', () => {
  it("a key's secret is shown once; the key works at once and stops working when revoked", async () => {
    const created = await admin.request('/v1/environments/me/api-keys', { method: 'POST' });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: string; hint: string; key: string; revokedAt: null } };
    expect(data.key).toMatch(/^hk_/);
    expect(data.hint).toBe(`${data.key.slice(0, 6)}…${data.key.slice(-4)}`);
    const withKey = (path: string, init: RequestInit = {}) => fetch(`${svc.url}${path}`, { ...init, headers: { authorization: `ApiKey ${data.key}` } });
    expect((await withKey('/v2/subscribers')).status).toBe(200);

    const listed = await (await viewer.request('/v1/environments/me/api-keys')).text();
    expect(listed).toContain(data.id);
    expect(listed).not.toContain(data.key);
    expect((await viewer.request(`/v1/environments/me/api-keys/${data.id}`, { method: 'DELETE' })).status).toBe(403);

    const production = admin.me.environments.find((e) => e.slug === 'production')!.id;
    expect((await admin.request(`/v1/environments/me/api-keys/${data.id}`, { method: 'DELETE', headers: { 'herald-environment': production } })).status).toBe(404);
    expect((await admin.request(`/v1/environments/me/api-keys/${data.id}`, { method: 'DELETE' })).status).toBe(204);
    await expect.poll(async () => (await withKey('/v2/subscribers')).status, { timeout: 10_000 }).toBe(401);
    expect((await admin.request(`/v1/environments/me/api-keys/${data.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('Inbox security and retry policy', () => {
  it("an admin switches HMAC on and sets the allowed origins; bad origins and unknown keys are named", async () => {
    const set = (json: unknown) => admin.request('/v1/environments/me', { method: 'PATCH', json });
    const bad = await set({ corsOrigins: ['https://app.example.com/path'] });
    expect(bad.status).toBe(422);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['corsOrigins']);
    expect((await set({ inboxHmac: true, hmac: true })).status).toBe(422);
    const done = await set({ inboxHmac: true, corsOrigins: ['https://app.example.com'] });
    expect(((await done.json()) as { data: unknown }).data).toMatchObject({ inboxHmac: true, corsOrigins: ['https://app.example.com'] });
    const me = (await (await svc.request('/v1/environments/me')).json()) as { data: Record<string, unknown> };
    expect(me.data).toMatchObject({ inboxHmac: true, corsOrigins: ['https://app.example.com'] });
    expect(Object.keys(me.data)).not.toContain('signingSecret');
  });

  it('an admin sets retry policy fields over the service default and resets them', async () => {
    const policy = async (res: Promise<Response>) => ((await (await res).json()) as { data: { effective: Record<string, number>; own: object | null } }).data;
    expect((await policy(admin.request('/v1/environments/me/retry-policy'))).own).toBeNull();
    const set = await policy(admin.request('/v1/environments/me/retry-policy', { method: 'PUT', json: { maxAttempts: 8 } }));
    expect(set).toMatchObject({ own: { maxAttempts: 8 }, effective: { maxAttempts: 8, initialDelayMs: 30_000 } });
    const bad = await admin.request('/v1/environments/me/retry-policy', { method: 'PUT', json: { maxAttempts: 0 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['retryPolicy.maxAttempts']);
    expect((await svc.request('/v1/environments/me/retry-policy')).status).toBe(200);
    expect((await policy(admin.request('/v1/environments/me/retry-policy', { method: 'DELETE' }))).own).toBeNull();
  });

  it('names the environment a session acts on with Herald-Environment: missing is a 400, unknown or malformed a 404', async () => {
    expect((await admin.request('/v2/subscribers', { headers: { 'herald-environment': '' } })).status).toBe(400);
    expect((await admin.request('/v2/subscribers', { headers: { 'herald-environment': '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    expect((await admin.request('/v2/subscribers', { headers: { 'herald-environment': "x' OR 1=1" } })).status).toBe(404);
  });

  it('lists the organization\'s environments for the switcher, to an API key and a session alike', async () => {
    const slugs = async (res: Response) => ((await res.json()) as { data: Array<{ slug: string }> }).data.map((e) => e.slug);
    expect(await slugs(await svc.request('/v1/environments'))).toEqual(['development', 'production']);
    expect(await slugs(await viewer.request('/v1/environments'))).toEqual(['development', 'production']);
  });
});
