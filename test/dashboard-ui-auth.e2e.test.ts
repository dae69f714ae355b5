import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, printedSetupToken } from './support/dashboard';
import { expectAccessible, newPage, openBrowser, openNav, prepareDashboard, screenshot, signInUi, type Browser } from './support/dashboard-browser';
import { startService, type TestService } from './support/service';

// The dashboard in a real browser: first run, sign-in, its limits, sign-out, a viewer, environments.
let svc: TestService;
let chromium: Browser;

beforeAll(async () => {
  prepareDashboard();
  svc = await startService();
  chromium = await openBrowser();
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
});

describe('the dashboard’s sign-in in a real browser', { timeout: 120_000 }, () => {
  it('sends a first visitor to setup, which creates the first admin with the printed token and signs in', async () => {
    const page = await newPage(chromium.browser);
    await page.goto(`${svc.url}/dashboard/`);
    await page.getByRole('heading', { name: 'Create the first admin' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'setup');
    // The printed link carries the token in its fragment; the page fills it in.
    await page.goto(`${svc.url}/dashboard/setup#token=${printedSetupToken(svc)}`);
    expect(await page.getByLabel('Setup token').inputValue()).toBe(printedSetupToken(svc));
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create admin and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).textContent()).resolves.toContain('ada@example.com');
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('refuses a wrong password, then rate-limits the account even for the right one', async () => {
    const page = await newPage(chromium.browser);
    await page.goto(`${svc.url}/dashboard/sign-in`);
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email').fill('grace@example.com');
    /** One attempt through the form: the answer's status and what the page then says. */
    const tries = async (password: string) => {
      await page.getByLabel('Password').fill(password);
      const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/dashboard/sign-in')), page.getByRole('button', { name: 'Sign in' }).click()]);
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
      return { status: answer.status(), says: await page.getByRole('alert').textContent() };
    };
    await expect(tries('not the password at all')).resolves.toEqual({ status: 401, says: 'Wrong email or password.' });
    for (let i = 0; i < 4; i++) expect((await tries(`wrong guess number ${i}`)).status).toBe(401);
    // Five wrong for the account: the next is held off, whatever the password.
    const held = await tries(PASSWORD);
    expect(held.status).toBe(429);
    expect(held.says).toMatch(/^Too many attempts: try again in \d+ seconds\.$/);
    expect(page.url()).toBe(`${svc.url}/dashboard/sign-in`);
    await page.close();
  });

  it('signs out: the session ends on the server and the app asks to sign in again', async () => {
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    const cookie = (await chromium.browser.cookies(svc.url)).find((c) => c.name === 'herald_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Herald' }).waitFor();
    // The old cookie no longer works anywhere.
    const me = await fetch(`${svc.url}/v1/dashboard/me`, { headers: { cookie: `herald_session=${cookie.value}` } });
    expect(me.status).toBe(401);
    await page.goto(`${svc.url}/dashboard/workflows`);
    await page.getByRole('heading', { name: 'Sign in to Herald' }).waitFor();
    await page.close();
  });

  it('lets an admin invite a viewer, who can look at everything and save nothing', async () => {
    const admin = await newPage(chromium.browser);
    await signInUi(admin, svc, 'ada@example.com');
    await openNav(admin, 'Workflows');
    await admin.getByRole('link', { name: 'New workflow' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Read me');
    await admin.getByRole('button', { name: 'Create workflow' }).click();
    await admin.getByRole('heading', { name: 'Workflow Read me' }).waitFor();
    await openNav(admin, 'Keys and settings', /^Keys and settings/);
    await admin.getByLabel('Invite email').fill('vic@example.com');
    await admin.getByRole('button', { name: 'Invite' }).click();
    const link = await admin.getByTestId('invite-link').textContent();
    expect(link).toMatch(/\/dashboard\/accept-invitation#token=/);
    await admin.close();

    const viewerContext = await openBrowser();
    try {
      const viewer = await newPage(viewerContext.browser);
      await viewer.goto(link!);
      await viewer.getByLabel('Password').fill(PASSWORD);
      await viewer.getByRole('button', { name: 'Set password and sign in' }).click();
      await openNav(viewer, 'Workflows');
      expect(await viewer.getByRole('link', { name: 'New workflow' }).count()).toBe(0);
      await viewer.getByRole('link', { name: 'Read me' }).click();
      await viewer.getByText('You are a viewer: you can look, not change.').waitFor();
      await expect(viewer.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
      await expect(viewer.getByLabel('Name', { exact: true }).isDisabled()).resolves.toBe(true);
      // Whatever the page shows, the server refuses a viewer's write from this very browser.
      const status = await viewer.evaluate(async () => {
        const me = (await (await fetch('/v1/dashboard/me')).json()) as { data: { environments: Array<{ id: string; slug: string }> } };
        const development = me.data.environments.find((e) => e.slug === 'development')!.id;
        return (await fetch('/v2/workflows/read-me', { method: 'DELETE', headers: { 'Herald-Environment': development } })).status;
      });
      expect(status).toBe(403);
      await screenshot(viewer, 'workflow-viewer');
    } finally {
      await viewerContext.close();
    }
  });

  it('switches environments: what is made in Development is not in Production', async () => {
    expect((await svc.request('/v2/workflows', { method: 'POST', json: { name: 'Only in development' } })).status).toBe(201);
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Workflows');
    await page.getByRole('link', { name: 'Only in development' }).waitFor();
    await page.getByLabel('Environment').selectOption({ label: 'Production' });
    await page.getByText('No workflows yet.').waitFor();
    // The choice is remembered across a reload.
    await page.reload();
    await expect(page.getByLabel('Environment').locator('option:checked').textContent()).resolves.toBe('Production');
    await page.getByLabel('Environment').selectOption({ label: 'Development' });
    await page.getByRole('link', { name: 'Only in development' }).waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
