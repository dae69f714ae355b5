import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { RequestOrigins } from './request-origin';
import { requestFacts } from './request-origin';

/** The dashboard's session cookie: the random token only; everything else stays on the server. */
export const SESSION_COOKIE = 'herald_session';

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (no cross-site request but top-level navigation carries
 * it), Path=/ (the API and the dashboard share it), Secure when the browser came over HTTPS; it
 * lasts as long as the session may.
 */
export function writeSessionCookie(c: Context, origins: RequestOrigins, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: origins.isHttps(requestFacts(c)),
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(c: Context, origins: RequestOrigins): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: origins.isHttps(requestFacts(c)) });
}
