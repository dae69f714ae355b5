import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/wait';
import { setUpAdmin } from './support/dashboard';
import { expectAccessible, newPage, openBrowser, openNav, prepareDashboard, screenshot, signInUi, type Browser } from './support/dashboard-browser';
import { startService, type TestService } from './support/service';

// The dashboard's other pages in a real browser against the running service: Overview, Subscribers,
// Topics, keys and settings, and editing a workflow's steps.
let svc: TestService;
let chromium: Browser;

beforeAll(async () => {
  prepareDashboard();
  svc = await startService();
  await setUpAdmin(svc);
  chromium = await openBrowser();
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
});

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

describe('the dashboard’s pages in a real browser', { timeout: 120_000 }, () => {
  it('Overview charts the triggers the service counted', async () => {
    const workflow = { name: 'Ping', workflowId: 'ping', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'ping' } }] };
    expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'ping', to: `p${i}` } })).status).toBe(201);
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    // Counts reach the aggregate within its flush interval (2 s); the page polls.
    await page.getByText('Triggers: 3', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByText('Triggers: 3', { exact: true }).waitFor();
    await expect(page.getByRole('img', { name: 'Triggers per bucket' }).locator('rect').count()).resolves.toBe(7);
    await expectAccessible(page);
    await screenshot(page, 'overview');
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('Subscribers: searches by part of a name and by email, opens a profile, edits it and a preference, shows topics and inbox', async () => {
    const people = [
      { subscriberId: 'grace', firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' },
      { subscriberId: 'alan', firstName: 'Alan', lastName: 'Turing', email: 'alan@bletchley.example' },
      { subscriberId: 'ada-l', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@engine.example' },
    ];
    for (const p of people) expect((await svc.request('/v2/subscribers', { method: 'POST', json: p })).status).toBe(201);
    expect((await svc.request('/v2/topics', { method: 'POST', json: { key: 'navy', name: 'Navy' } })).status).toBe(201);
    expect((await svc.request('/v2/topics/navy/subscriptions', { method: 'POST', json: { subscriptions: ['grace'] } })).status).toBe(201);
    const workflow = { name: 'Hello', workflowId: 'hello', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'Hello {{subscriber.firstName}}' } }] };
    expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
    expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'hello', to: 'grace' } })).status).toBe(201);

    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Subscribers');
    const search = page.getByRole('search');
    await search.getByLabel('Search by').selectOption('name');
    await search.getByLabel('Search', { exact: true }).fill('opp');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: '.example' }).allTextContents()).toEqual([expect.stringContaining('Grace Hopper')]);
    await search.getByLabel('Search by').selectOption('email');
    await search.getByLabel('Search', { exact: true }).fill('alan@');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: '.example' }).allTextContents()).toEqual([expect.stringContaining('Alan Turing')]);
    await expectAccessible(page);
    await screenshot(page, 'subscribers');

    await search.getByLabel('Search', { exact: true }).fill('');
    await search.getByLabel('Search by').selectOption('subscriberId');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'grace', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscriber grace' }).waitFor();
    await page.getByRole('region', { name: 'Topics' }).getByText('navy').waitFor();
    await page.getByRole('region', { name: 'Inbox' }).getByText('Hello Grace').waitFor();
    await page.getByLabel('lastName').fill('Hopper-Murray');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await json(await svc.request('/v2/subscribers/grace'))).body.data.lastName).toBe('Hopper-Murray');
    // Preferences: email off for the Hello workflow only.
    await page.getByLabel('Hello: email').uncheck();
    await expect.poll(async () => (await json(await svc.request('/v2/subscribers/grace/preferences'))).body.data.workflows.find((w: { workflow: { identifier: string } }) => w.workflow.identifier === 'hello').channels.email).toBe(false);
    await expect(page.getByLabel('All workflows: email').isChecked()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'subscriber');
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('Topics: creates a topic, adds subscribers and lists its subscriptions', async () => {
    expect((await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'tess' } })).status).toBe(201);
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Topics');
    await page.getByLabel('Topic key').fill('release-notes');
    await page.getByLabel('Topic name').fill('Release notes');
    await page.getByRole('button', { name: 'Create topic' }).click();
    await page.getByRole('button', { name: 'release-notes' }).click();
    await page.getByLabel('Subscriber ids (comma-separated)').fill('tess');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('region', { name: 'Subscriptions of release-notes' }).getByRole('link', { name: 'tess' }).waitFor();
    const subscriptions = await json(await svc.request('/v2/topics/release-notes/subscriptions'));
    expect(subscriptions.body.data.map((s: { subscriber: { subscriberId: string } }) => s.subscriber.subscriberId)).toEqual(['tess']);
    await expectAccessible(page);
    await screenshot(page, 'topics');
    await page.close();
  });

  it('Keys and settings: a new API key is shown once and works, revoking it ends it; the retry policy saves', async () => {
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Keys and settings', /^Keys and settings/);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect((await fetch(`${svc.url}/v2/workflows`, { headers: { authorization: `ApiKey ${key}` } })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    // Shown once: after a reload, only its hint.
    expect(await page.content()).not.toContain(key);
    await expectAccessible(page);
    await screenshot(page, 'settings');
    page.once('dialog', (dialog) => void dialog.accept());
    const row = page.getByRole('row').filter({ hasText: key.slice(-4) });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke' }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await fetch(`${svc.url}/v2/workflows`, { headers: { authorization: `ApiKey ${key}` } })).status, { timeout: 10_000 }).toBe(401);

    await page.getByLabel('maxAttempts').fill('7');
    await page.getByRole('button', { name: 'Save retry policy' }).click();
    await page.getByText('Retry policy saved.').waitFor();
    expect((await json(await svc.request('/v1/environments/me/retry-policy'))).body.data.own).toEqual({ maxAttempts: 7 });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('Workflows: reorders and removes steps, deactivates and deletes a workflow', async () => {
    const steps = ['One', 'Two', 'Three'].map((name) => ({ type: 'in_app', name, controlValues: { body: name } }));
    expect((await svc.request('/v2/workflows', { method: 'POST', json: { name: 'Steps', workflowId: 'steps', steps } })).status).toBe(201);
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Workflows');
    await page.getByRole('link', { name: 'Steps', exact: true }).click();
    await page.getByRole('button', { name: 'Move Three up' }).click();
    await page.getByRole('button', { name: 'Remove One' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = (await json(await svc.request('/v2/workflows/steps'))).body.data;
    expect(saved.steps.map((s: { name: string }) => s.name)).toEqual(['Three', 'Two']);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    // The button turns when the answer arrives; the read waits for the write it answered.
    await waitFor(async () => (await json(await svc.request('/v2/workflows/steps'))).body.data.active === false);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    expect((await svc.request('/v2/workflows/steps')).status).toBe(404);
    await expectAccessible(page);
    await screenshot(page, 'workflows');
    await page.close();
  });
});
