import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPost, PASSWORD, setUpAdmin, signIn } from './support/dashboard';
import { startService, type TestService } from './support/service';

// Session lifetimes over HTTP, with short ones configured (3 s idle, 8 s at most), and a service
// that trusts no proxy.
let svc: TestService;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  svc = await startService({ HERALD_SESSION_IDLE_SECONDS: '3', HERALD_SESSION_MAX_SECONDS: '8' });
  await setUpAdmin(svc);
});
afterAll(() => svc?.dispose());

describe('session lifetimes', () => {
  it('a session idle for longer than the idle limit has ended, on the API too, and its cookie is cleared', async () => {
    const session = await signIn(svc, 'ada@example.com');
    expect((await session.request('/v2/subscribers')).status).toBe(200);
    await sleep(3_500);
    const expired = await session.request('/v2/subscribers');
    expect(expired.status).toBe(401);
    expect(expired.headers.get('set-cookie')).toMatch(/^herald_session=; Max-Age=0/);
    expect((await session.request('/v1/dashboard/me')).status).toBe(401);
  });

  it('a session in use ends at its absolute limit all the same', async () => {
    const session = await signIn(svc, 'ada@example.com');
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      expect((await session.request('/v1/dashboard/me')).status).toBe(200);
      await sleep(500);
    }
    await sleep(Math.max(0, 8_200 - (Date.now() - started)));
    expect((await session.request('/v1/dashboard/me')).status).toBe(401);
  });
});

describe('without a trusted proxy', () => {
  it('believes no X-Forwarded-Proto: the cookie is not Secure, and an https Origin is another origin', async () => {
    const forged = { 'x-forwarded-proto': 'https' };
    const res = await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: PASSWORD }, forged);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).not.toContain('Secure');
    const https = `https://${new URL(svc.url).host}`;
    expect((await dashboardPost(svc, '/v1/dashboard/sign-in', { email: 'ada@example.com', password: PASSWORD }, { ...forged, origin: https })).status).toBe(403);
  });
});
