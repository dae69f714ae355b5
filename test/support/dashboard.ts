import { expect } from 'vitest';
import { requestWithHeaders, type RequestInitWithJson } from './herald-process';
import type { TestService } from './service';

export const PASSWORD = 'correct horse battery';

export interface DashboardMe {
  user: { id: string; email: string; role: 'admin' | 'viewer' };
  organization: { id: string; name: string };
  environments: Array<{ id: string; name: string; slug: string; identifier: string }>;
}

/** A browser signed in to the dashboard: its cookie, its origin, and the environment it has switched to. */
export interface DashboardClient {
  cookie: string;
  me: DashboardMe;
  environmentId: string;
  /** fetch with the cookie, Origin (the service's own unless given; `none`: no Origin) and Herald-Environment; no API key. */
  request(path: string, init?: RequestInitWithJson): Promise<Response>;
}

/** The `herald_session=<token>` pair of a Set-Cookie header. */
export function sessionCookieOf(res: Response): string {
  const match = /herald_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  if (!match) throw new Error(`no session cookie in ${res.status} ${res.headers.get('set-cookie')}`);
  return `herald_session=${match[1]}`;
}

export function dashboardClient(svc: TestService, cookie: string, me: DashboardMe, slug = 'development'): DashboardClient {
  const environmentId = me.environments.find((e) => e.slug === slug)!.id;
  return {
    cookie,
    me,
    environmentId,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      const origin = headers.get('origin') ?? new URL(svc.url).origin;
      headers.delete('origin');
      return requestWithHeaders(svc.url, path, { ...init, headers }, { cookie, 'herald-environment': environmentId, ...(origin !== 'none' && { origin }) });
    },
  };
}

/** A POST as the dashboard's page sends it (same origin, JSON), without a session. */
export function dashboardPost(svc: TestService, path: string, json: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(svc.url).origin, ...headers }, body: JSON.stringify(json) });
}

/** The setup token the service printed at its start. */
export function printedSetupToken(svc: TestService): string {
  const match = /\/dashboard\/setup#token=([A-Za-z0-9_-]+)/.exec(svc.output());
  if (!match) throw new Error(`no setup token printed:\n${svc.output()}`);
  return match[1];
}

/** First run: the first admin from the printed setup token. */
export async function setUpAdmin(svc: TestService, email = 'ada@example.com'): Promise<DashboardClient> {
  const res = await dashboardPost(svc, '/v1/dashboard/setup', { token: printedSetupToken(svc), email, password: PASSWORD });
  expect(res.status).toBe(201);
  return dashboardClient(svc, sessionCookieOf(res), ((await res.json()) as { data: DashboardMe }).data);
}

export async function signIn(svc: TestService, email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<DashboardClient> {
  const res = await dashboardPost(svc, '/v1/dashboard/sign-in', { email, password }, headers);
  expect(res.status).toBe(200);
  return dashboardClient(svc, sessionCookieOf(res), ((await res.json()) as { data: DashboardMe }).data);
}

/** An admin invites `email` with `role`; the invited person accepts and is signed in. */
export async function invited(svc: TestService, admin: DashboardClient, email: string, role: 'admin' | 'viewer'): Promise<DashboardClient> {
  const invite = await admin.request('/v1/dashboard/invitations', { method: 'POST', json: { email, role } });
  expect(invite.status).toBe(201);
  const { token } = ((await invite.json()) as { data: { token: string } }).data;
  const res = await dashboardPost(svc, '/v1/dashboard/invitations/accept', { token, password: PASSWORD });
  expect(res.status).toBe(201);
  return dashboardClient(svc, sessionCookieOf(res), ((await res.json()) as { data: DashboardMe }).data);
}
