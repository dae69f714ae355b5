import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAdmin } from './support/dashboard';
import { newPage, openBrowser, openNav, prepareDashboard, signInUi, type Browser } from './support/dashboard-browser';
import { startService, type TestService } from './support/service';

// What a browser can and cannot do with a dashboard session: another origin cannot use it, no
// answer the app receives holds a secret, and a session that ends sends the app to sign-in.
let svc: TestService;
let chromium: Browser;
let elsewhere: Server;
let elsewhereUrl: string;

beforeAll(async () => {
  prepareDashboard();
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  await setUpAdmin(svc);
  chromium = await openBrowser();
  // Another origin on the same host (another port): same site for SameSite, so only the Origin check stands.
  elsewhere = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>elsewhere</p>'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
  await new Promise((resolve) => elsewhere?.close(resolve));
});

describe('the dashboard’s session in a real browser', { timeout: 120_000 }, () => {
  it('cannot be used by a page of another origin, by fetch or by a form, nor read by it', async () => {
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    const environmentId = (await (await page.request.get(`${svc.url}/v1/dashboard/me`)).json()).data.environments[0].id as string;
    await page.goto(elsewhereUrl);
    const outcome = await page.evaluate(
      async ({ herald, environmentId }) => {
        // A simple request (no preflight): the browser sends it with the cookie, the server must refuse it.
        await fetch(`${herald}/v2/workflows`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'Planted by fetch' }) });
        let read = 'refused';
        try {
          await (await fetch(`${herald}/v1/dashboard/me`, { credentials: 'include', headers: { 'Herald-Environment': environmentId } })).text();
          read = 'read';
        } catch {
          // CORS: the answer is not this origin's to read.
        }
        return read;
      },
      { herald: svc.url, environmentId },
    );
    expect(outcome).toBe('refused');
    // A classic form post, which a browser sends with the cookie too.
    await page.setContent(`<form method="post" enctype="text/plain" action="${svc.url}/v2/workflows"><input name='{"name":"Planted by form","x":"' value='"}'></form>`);
    await Promise.all([page.waitForURL(`${svc.url}/v2/workflows`), page.evaluate(() => document.forms[0].submit())]);
    expect(await page.textContent('body')).toContain('FORBIDDEN');
    const workflows = await (await svc.request('/v2/workflows')).json();
    expect(workflows.data.workflows.map((w: { name: string }) => w.name)).toEqual([]);
    await page.close();
  });

  it('never receives a credential, a key’s secret after its creation, or the session token', async () => {
    const page = await newPage(chromium.browser);
    const bodies: Array<{ url: string; body: string }> = [];
    page.on('response', (response) => {
      if (response.url().startsWith(svc.url) && response.request().resourceType() === 'fetch') void response.text().then((body) => bodies.push({ url: response.url(), body }), () => undefined);
    });
    await signInUi(page, svc, 'ada@example.com');
    const token = (await chromium.browser.cookies(svc.url)).find((c) => c.name === 'herald_session')!.value;
    await openNav(page, 'Integrations');
    await page.getByLabel('Provider', { exact: true }).selectOption('nodemailer');
    await page.getByLabel('Name', { exact: true }).fill('Secret SMTP');
    await page.getByLabel('host (required)').fill('127.0.0.1');
    await page.getByLabel('port (required)').fill('2525');
    await page.getByLabel('from (required)').fill('shop@herald.test');
    await page.getByLabel('user', { exact: true }).fill('mailer');
    await page.getByLabel('password', { exact: true }).fill('smtp-password-never-shown');
    await page.getByRole('button', { name: 'Add integration' }).click();
    await page.getByRole('row').filter({ hasText: 'Secret SMTP' }).waitFor();
    await openNav(page, 'Keys and settings', /^Keys and settings/);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    for (const [link, heading] of [['Overview', 'Overview'], ['Activity', 'Activity'], ['Workflows', 'Workflows'], ['Subscribers', 'Subscribers'], ['Topics', 'Topics'], ['Integrations', 'Integrations'], ['Keys and settings', /^Keys and settings/]] as const) {
      await openNav(page, link, heading);
      await page.waitForLoadState('networkidle');
    }
    expect(bodies.length).toBeGreaterThan(10);
    const creations = bodies.filter((b) => b.body.includes(key));
    expect(creations.map((b) => new URL(b.url).pathname)).toEqual(['/v1/environments/me/api-keys']);
    for (const { url, body } of bodies) {
      expect(body, url).not.toContain('smtp-password-never-shown');
      expect(body, url).not.toContain(token);
    }
    await page.close();
  });

  it('sends the app back to sign-in when its session ends', async () => {
    const short = await startService({ HERALD_SESSION_MAX_SECONDS: '6' });
    try {
      await setUpAdmin(short);
      const context = await openBrowser();
      try {
        const page = await newPage(context.browser);
        await signInUi(page, short, 'ada@example.com');
        await openNav(page, 'Activity');
        // The list refreshes every 3 s: the first refresh after the session's end meets a 401.
        await page.getByRole('heading', { name: 'Sign in to Herald' }).waitFor({ timeout: 20_000 });
        expect(page.url()).toBe(`${short.url}/dashboard/sign-in`);
      } finally {
        await context.close();
      }
    } finally {
      await short.dispose();
    }
  });
});
