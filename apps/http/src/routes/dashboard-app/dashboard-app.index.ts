import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';

// apps/dashboard's build (its postinstall, or `pnpm --filter @herald/dashboard build`).
const DIST = fileURLToPath(new URL('../../../../dashboard/dist/', import.meta.url));
const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

// Scripts and styles only from this origin: an injected string cannot run. Inline styles stay
// allowed for email previews (sandboxed frames, which inherit this policy), images from anywhere
// an email may link.
const HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-cache',
};

/** The dashboard web app under /dashboard: its two assets, and its page for every other path (the app routes in the browser). */
export function dashboardAppRouter() {
  const read = (file: string) => readFile(`${DIST}${file}`).catch(() => null);
  const missing = 'The dashboard is not built: run pnpm install (or pnpm --filter @herald/dashboard build)';
  const page = async (c: { body(data: Uint8Array, status: 200, headers: Record<string, string>): Response; text(t: string, s: 503): Response }) => {
    const html = await read('index.html');
    return html ? c.body(new Uint8Array(html), 200, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' }) : c.text(missing, 503);
  };
  return new Hono<AppEnv>()
    .get('/dashboard/assets/:file', async (c) => {
      const type = ASSETS[c.req.param('file')];
      if (!type) return c.notFound();
      const body = await read(c.req.param('file'));
      return body ? c.body(new Uint8Array(body), 200, { ...HEADERS, 'content-type': type }) : c.text(missing, 503);
    })
    .get('/dashboard', (c) => page(c))
    .get('/dashboard/*', (c) => page(c));
}
