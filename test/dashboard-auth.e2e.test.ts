import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPost, invited, PASSWORD, printedSetupToken, sessionCookieOf, setUpAdmin, signIn, type DashboardClient } from './support/dashboard';
import { operatorCommandFed } from './support/operator-command';
import { startService, type TestService } from './support/service';

// Dashboard sign-in over HTTP: first-run setup, sign-in limits, sign-out, invitations, roles, the
// operator command. The service trusts X-Forwarded-* here (HERALD_TRUST_PROXY=true), so each test
// signs in from addresses of its own and the per-address limit of one cannot touch another.
let svc: TestService;
let admin: DashboardClient;
const from = (address: string) => ({ 'x-forwarded-for': address });

beforeAll(async () => {
  svc = await startService({ HERALD_TRUST_PROXY: 'true' });
});
afterAll(() => svc?.dispose());

describe('first run', () => {
  it('prints a setup token while no user exists; it makes the first admin once, signed in with a hardened cookie', async () => {
    expect(await (await fetch(`${svc.url}/v1/dashboard/setup`)).json()).toEqual({ data: { required: true } });
    const wrong = await dashboardPost(svc, '/v1/dashboard/setup', { token: 'not-the-printed-one', email: 'ada@example.com', password: PASSWORD });
    expect(wrong.status).toBe(401);

    const token = printedSetupToken(svc);
    const res = await dashboardPost(svc, '/v1/dashboard/setup', { token, email: 'Ada@Example.com', password: PASSWORD });
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^herald_session=[A-Za-z0-9_-]{43}; Max-Age=4319\d; Path=\/; HttpOnly; SameSite=Lax$/);
    const { data } = (await res.json()) as { data: { user: { email: string; role: string }; environments: Array<{ slug: string }> } };
    expect(data.user).toMatchObject({ email: 'ada@example.com', role: 'admin' });
    expect(data.environments.map((e) => e.slug)).toEqual(['development', 'production']);

    expect(await (await fetch(`${svc.url}/v1/dashboard/setup`)).json()).toEqual({ data: { required: false } });
    const again = await dashboardPost(svc, '/v1/dashboard/setup', { token, email: 'eve@example.com', password: PASSWORD });
    expect(again.status).toBe(409);
    admin = await signIn(svc, 'ada@example.com', PASSWORD, from('192.0.2.1'));
  });

  it('refuses a setup body with an unknown key by naming it, without showing the password back', async () => {
    const res = await dashboardPost(svc, '/v1/dashboard/setup', { token: 'x', email: 'a@example.com', password: 'p', admin: true });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, { value?: unknown }> };
    expect(Object.keys(body.errors)).toContain('admin');
    expect(JSON.stringify(body)).not.toContain('"p"');
  });

  it('marks the cookie Secure when a trusted proxy says the browser came over HTTPS', async () => {
    const origin = `https://${new URL(svc.url).host}`;
    const res = await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: PASSWORD }, { ...from('192.0.2.2'), 'x-forwarded-proto': 'https', origin });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });
});

describe('sign-in', () => {
  it('refuses a wrong password and an unknown email alike, then refuses the account for a while, even with the right password', async () => {
    await invited(svc, admin, 'bob@example.com', 'viewer');
    const attempt = (email: string, password: string, address: string) => dashboardPost(svc, '/v1/dashboard/sign-in', { email, password }, from(address));
    const wrong = await attempt('bob@example.com', 'not bob password', '198.51.100.1');
    const unknown = await attempt('nobody@example.com', PASSWORD, '198.51.100.1');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const [a, b] = (await Promise.all([wrong.json(), unknown.json()])) as Array<{ message: string }>;
    expect(a.message).toBe(b.message);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    for (let i = 0; i < 4; i++) expect((await attempt('bob@example.com', `guess number ${i}`, `198.51.100.${10 + i}`)).status).toBe(401);
    const limited = await attempt('bob@example.com', PASSWORD, '198.51.100.20');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(limited.headers.get('set-cookie')).toBeNull();
    expect(((await limited.json()) as { code: string }).code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('limits one address across accounts (20 attempts in 15 minutes)', { timeout: 120_000 }, async () => {
    const address = '203.0.113.99';
    for (let i = 0; i < 20; i++) {
      const res = await dashboardPost(svc, '/v1/dashboard/sign-in', { email: `guess${i}@example.com`, password: PASSWORD }, from(address));
      expect(res.status).toBe(401);
    }
    const res = await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: PASSWORD }, from(address));
    expect(res.status).toBe(429);
    expect((await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: PASSWORD }, from('203.0.113.100'))).status).toBe(200);
  });

  it('sign-out ends the session on the server: the old cookie no longer works anywhere', async () => {
    const session = await signIn(svc, 'ada@example.com', PASSWORD, from('192.0.2.3'));
    expect((await session.request('/v1/dashboard/me')).status).toBe(200);
    const out = await session.request('/v1/dashboard/sign-out', { method: 'POST' });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^herald_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    for (const path of ['/v1/dashboard/me', '/v1/notifications', '/v2/subscribers']) expect((await session.request(path)).status).toBe(401);
    expect((await session.request('/v1/dashboard/sign-out', { method: 'POST' })).status).toBe(401);
    expect((await admin.request('/v1/dashboard/me')).status).toBe(200);
  });
});

describe('users and invitations', () => {
  it('an admin invites a viewer who accepts with a password; the invitation works once and its token is never shown again', async () => {
    const invite = await admin.request('/v1/dashboard/invitations', { method: 'POST', json: { email: 'Carol@Example.com', role: 'viewer' } });
    expect(invite.status).toBe(201);
    const { data } = (await invite.json()) as { data: { id: string; email: string; role: string; token: string; acceptPath: string } };
    expect(data).toMatchObject({ email: 'carol@example.com', role: 'viewer', acceptPath: `/dashboard/accept-invitation#token=${data.token}` });
    const pending = await (await admin.request('/v1/dashboard/invitations')).text();
    expect(pending).toContain(data.id);
    expect(pending).not.toContain(data.token);

    const inspected = await dashboardPost(svc, '/v1/dashboard/invitations/inspect', { token: data.token });
    expect(((await inspected.json()) as { data: unknown }).data).toMatchObject({ email: 'carol@example.com', role: 'viewer' });
    const short = await dashboardPost(svc, '/v1/dashboard/invitations/accept', { token: data.token, password: 'short' });
    expect(short.status).toBe(422);
    const accepted = await dashboardPost(svc, '/v1/dashboard/invitations/accept', { token: data.token, password: PASSWORD });
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as { data: { user: unknown } }).data.user).toMatchObject({ email: 'carol@example.com', role: 'viewer' });
    expect(sessionCookieOf(accepted)).toMatch(/^herald_session=/);
    expect((await dashboardPost(svc, '/v1/dashboard/invitations/accept', { token: data.token, password: PASSWORD })).status).toBe(401);
    expect(await (await admin.request('/v1/dashboard/invitations')).text()).not.toContain(data.id);
  });

  it('refuses a revoked invitation, and an invitation of an existing user', async () => {
    const invite = await admin.request('/v1/dashboard/invitations', { method: 'POST', json: { email: 'dave@example.com', role: 'admin' } });
    const { data } = (await invite.json()) as { data: { id: string; token: string } };
    expect((await admin.request(`/v1/dashboard/invitations/${data.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await dashboardPost(svc, '/v1/dashboard/invitations/accept', { token: data.token, password: PASSWORD })).status).toBe(401);
    const existing = await admin.request('/v1/dashboard/invitations', { method: 'POST', json: { email: 'ada@example.com', role: 'viewer' } });
    expect(existing.status).toBe(422);
  });

  it('roles change and users are deleted, never leaving no admin; a deleted user is signed out at once', async () => {
    const erin = await invited(svc, admin, 'erin@example.com', 'admin');
    const users = ((await (await admin.request('/v1/dashboard/users')).json()) as { data: Array<{ id: string; email: string; role: string }> }).data;
    const id = (email: string) => users.find((u) => u.email === email)!.id;
    expect(users.every((u) => !JSON.stringify(u).includes('scrypt'))).toBe(true);
    expect((await erin.request(`/v1/dashboard/users/${id('erin@example.com')}`, { method: 'PATCH', json: { role: 'viewer', extra: 1 } })).status).toBe(422);
    const demoted = await erin.request(`/v1/dashboard/users/${id('erin@example.com')}`, { method: 'PATCH', json: { role: 'viewer' } });
    expect(((await demoted.json()) as { data: { role: string } }).data.role).toBe('viewer');
    expect((await erin.request('/v1/dashboard/users')).status).toBe(403);
    expect((await admin.request(`/v1/dashboard/users/${id('ada@example.com')}`, { method: 'DELETE' })).status).toBe(409);
    expect((await admin.request(`/v1/dashboard/users/${id('ada@example.com')}`, { method: 'PATCH', json: { role: 'viewer' } })).status).toBe(409);
    expect((await admin.request(`/v1/dashboard/users/${id('erin@example.com')}`, { method: 'DELETE' })).status).toBe(204);
    expect((await erin.request('/v1/dashboard/me')).status).toBe(401);
    expect((await admin.request('/v1/dashboard/users/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status).toBe(404);
  });

  it('changing your own password needs the current one and ends your other sessions', async () => {
    const frank = await invited(svc, admin, 'frank@example.com', 'viewer');
    const elsewhere = await signIn(svc, 'frank@example.com', PASSWORD, from('192.0.2.40'));
    const wrong = await frank.request('/v1/dashboard/me/password', { method: 'PUT', json: { currentPassword: 'not my password', newPassword: 'a brand new passphrase' } });
    expect(wrong.status).toBe(422);
    const changed = await frank.request('/v1/dashboard/me/password', { method: 'PUT', json: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' } });
    expect(changed.status).toBe(204);
    expect((await frank.request('/v1/dashboard/me')).status).toBe(200);
    expect((await elsewhere.request('/v1/dashboard/me')).status).toBe(401);
    await signIn(svc, 'frank@example.com', 'a brand new passphrase', from('192.0.2.41'));
  });
});

describe('the operator command', () => {
  const herald = (args: string[], input = '') => operatorCommandFed(svc.databaseUrl, input, 'users', ...args);

  it('creates, lists, resets the password of and deletes users; a reset or a delete ends their sessions', { timeout: 120_000 }, async () => {
    expect(await herald(['create', '--email', 'Grace@Example.com', '--role', 'viewer'], `${PASSWORD}\n`)).toContain('Created viewer grace@example.com');
    const grace = await signIn(svc, 'grace@example.com', PASSWORD, from('192.0.2.50'));
    expect(grace.me.user.role).toBe('viewer');
    const listed = await herald(['list']);
    expect(listed).toMatch(/grace@example\.com\tviewer\t/);
    expect(listed).not.toContain('scrypt');
    expect(await herald(['reset-password', '--email', 'grace@example.com', '--password', 'reset by the operator'])).toContain('their sessions have ended');
    expect((await grace.request('/v1/dashboard/me')).status).toBe(401);
    const again = await signIn(svc, 'grace@example.com', 'reset by the operator', from('192.0.2.51'));
    await herald(['delete', '--email', 'grace@example.com']);
    expect((await again.request('/v1/dashboard/me')).status).toBe(401);
    await expect(herald(['create', '--email', 'not-an-email', '--password', PASSWORD])).rejects.toThrow(/email/);
    await expect(herald(['delete', '--email', 'nobody@example.com'])).rejects.toThrow(/not found/);
  });
});
