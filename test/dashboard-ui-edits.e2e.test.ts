import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invited, setUpAdmin, type DashboardClient } from './support/dashboard';
import { expectAccessible, newPage, openBrowser, openNav, prepareDashboard, screenshot, signInUi, type Browser } from './support/dashboard-browser';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

// The dashboard's editing forms in a real browser against the running service: an integration's
// conditions, a subscriber's channel settings, a workflow's read-only preferences, the Inbox
// settings, and the Activity page's status filter and a topic fan-out's progress. A viewer's
// write to each of these is refused by the server, whatever the page shows.
let svc: TestService;
let admin: DashboardClient;
let viewer: DashboardClient;
let chromium: Browser;

beforeAll(async () => {
  prepareDashboard();
  svc = await startService();
  admin = await setUpAdmin(svc);
  viewer = await invited(svc, admin, 'vic@example.com', 'viewer');
  chromium = await openBrowser();
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
});

const json = async (res: Response) => ({ status: res.status, body: await res.json() });
const created = async (path: string, body: unknown) => {
  const res = await svc.request(path, { method: 'POST', json: body });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()).data;
};

describe('the dashboard’s editing forms in a real browser', { timeout: 120_000 }, () => {
  it('Integrations: adds a condition to an integration and saves it; a viewer’s change is a 403', async () => {
    const integration = await created('/v1/integrations', { providerId: 'slack', channel: 'chat', name: 'Team Slack', identifier: 'team-slack', credentials: {} });
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Integrations');
    await page.getByText('Conditions of Team Slack (0)').click();
    const form = page.getByRole('form', { name: 'Conditions of Team Slack' });
    await form.getByRole('button', { name: 'Add condition' }).click();
    const first = form.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('On', { exact: true }).selectOption('payload');
    await first.getByLabel('Field', { exact: true }).fill('tier');
    await first.getByLabel('Operator').selectOption('EQUAL');
    await first.getByLabel('Value', { exact: true }).fill('gold');
    await form.getByLabel('Match').selectOption('OR');
    await form.getByRole('button', { name: 'Save conditions' }).click();
    await page.getByText('Conditions of Team Slack (1)').waitFor();
    const listed = async () => (await json(await svc.request('/v1/integrations'))).body.data.find((i: { _id: string }) => i._id === integration._id);
    const saved = await listed();
    expect(saved.conditions).toEqual([{ isNegated: false, type: 'STATEMENT', value: 'OR', children: [{ on: 'payload', field: 'tier', operator: 'EQUAL', value: 'gold' }] }]);
    await page.getByText('Conditions of Team Slack (1)').click();
    await page.getByText('Conditions of Team Slack (1)').click();
    await expectAccessible(page);
    await screenshot(page, 'integration-conditions');
    expect(page.errors).toEqual([]);
    await page.close();

    const refused = await viewer.request(`/v1/integrations/${integration._id}`, { method: 'PUT', json: { conditions: [] } });
    expect(refused.status).toBe(403);
    expect((await listed()).conditions).toEqual(saved.conditions);
  });

  it('Subscribers: sets a chat webhook URL and push device tokens per integration, removes one; a viewer’s change is a 403', async () => {
    await created('/v1/integrations', { providerId: 'slack', channel: 'chat', name: 'Ops Slack', identifier: 'ops-slack', credentials: {} });
    await created('/v1/integrations', { providerId: 'expo', channel: 'push', name: 'Expo', identifier: 'expo', credentials: { apiKey: 'expo-key' } });
    await created('/v2/subscribers', { subscriberId: 'rita', firstName: 'Rita' });
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await page.goto(`${svc.url}/dashboard/subscribers/rita`);
    await page.getByRole('heading', { level: 1, name: 'Subscriber rita' }).waitFor();
    const channels = page.getByRole('region', { name: 'Channel settings' });
    await channels.getByLabel('Integration').selectOption({ label: 'Ops Slack (slack, chat)' });
    await channels.getByLabel('Webhook URL').fill('https://hooks.slack.example/T1/B2/rita');
    await channels.getByRole('button', { name: 'Save channel settings' }).click();
    await channels.getByText('webhook https://hooks.slack.example/T1/B2/rita').waitFor();
    await channels.getByLabel('Integration').selectOption({ label: 'Expo (expo, push)' });
    await channels.getByLabel('Device tokens (comma-separated)').fill('ExponentPushToken[a], ExponentPushToken[b]');
    await channels.getByRole('button', { name: 'Save channel settings' }).click();
    await channels.getByText(/2 device token\(s\)/).waitFor();
    const stored = (await json(await svc.request('/v2/subscribers/rita'))).body.data.channels;
    expect(stored).toEqual([
      expect.objectContaining({ providerId: 'slack', integrationIdentifier: 'ops-slack', credentials: { webhookUrl: 'https://hooks.slack.example/T1/B2/rita' } }),
      expect.objectContaining({ providerId: 'expo', integrationIdentifier: 'expo', credentials: { deviceTokens: ['ExponentPushToken[a]', 'ExponentPushToken[b]'] } }),
    ]);
    await expectAccessible(page);
    await screenshot(page, 'subscriber-channels');

    // A viewer changes none of them, by any of the three routes.
    const path = '/v1/subscribers/rita/credentials';
    const body = { providerId: 'slack', credentials: { webhookUrl: 'https://evil.example/hook' } };
    expect((await viewer.request(path, { method: 'PUT', json: body })).status).toBe(403);
    expect((await viewer.request(path, { method: 'PATCH', json: body })).status).toBe(403);
    expect((await viewer.request(`${path}/slack`, { method: 'DELETE' })).status).toBe(403);
    expect((await json(await svc.request('/v2/subscribers/rita'))).body.data.channels).toEqual(stored);

    await channels.getByRole('button', { name: 'Remove slack settings' }).click();
    await channels.getByText('slack settings removed.').waitFor();
    expect((await json(await svc.request('/v2/subscribers/rita'))).body.data.channels.map((c: { providerId: string }) => c.providerId)).toEqual(['expo']);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('Workflows: the read-only switch of the preference defaults saves and reads back; a viewer’s change is a 403', async () => {
    await created('/v2/workflows', { name: 'Security alert', workflowId: 'security-alert', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'New sign-in' } }] });
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await page.goto(`${svc.url}/dashboard/workflows/security-alert`);
    await page.getByRole('heading', { level: 1, name: 'Workflow Security alert' }).waitFor();
    const readOnly = page.getByLabel('Read-only: subscribers cannot change these');
    await expect(readOnly.isChecked()).resolves.toBe(false);
    await readOnly.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const workflow = (await json(await svc.request('/v2/workflows/security-alert'))).body.data;
    expect(workflow.preferences.default.all).toEqual({ enabled: true, readOnly: true });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Workflow Security alert' }).waitFor();
    await waitFor(() => page.getByLabel('Read-only: subscribers cannot change these').isChecked());
    await expectAccessible(page);
    await screenshot(page, 'workflow-read-only');
    expect(page.errors).toEqual([]);
    await page.close();

    const refused = await viewer.request('/v2/workflows/security-alert', { method: 'PUT', json: { name: 'Security alert', workflowId: 'security-alert', steps: workflow.steps, preferences: { workflow: { all: { enabled: true, readOnly: false } } } } });
    expect(refused.status).toBe(403);
    expect((await json(await svc.request('/v2/workflows/security-alert'))).body.data.preferences.default.all.readOnly).toBe(true);
  });

  it('Keys and settings: the Inbox form saves the HMAC switch and allowed origins; a viewer’s change is a 403', async () => {
    const before = (await json(await admin.request('/v1/environments/me'))).body.data;
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Keys and settings', /^Keys and settings/);
    const inbox = page.getByRole('form', { name: 'Inbox' });
    await inbox.getByText(before.identifier, { exact: true }).waitFor();
    await inbox.getByLabel('Require subscriberHash (HMAC) for Inbox sessions').check();
    await inbox.getByLabel('Allowed origins (one per line)').fill('https://app.example.com\nhttps://admin.example.com');
    await inbox.getByRole('button', { name: 'Save Inbox settings' }).click();
    await page.getByText('Inbox settings saved.').waitFor();
    const saved = (await json(await admin.request('/v1/environments/me'))).body.data;
    expect(saved).toMatchObject({ identifier: before.identifier, inboxHmac: true, corsOrigins: ['https://app.example.com', 'https://admin.example.com'] });
    await page.reload();
    await page.getByRole('form', { name: 'Inbox' }).getByLabel('Allowed origins (one per line)').waitFor();
    await expect.poll(() => page.getByLabel('Allowed origins (one per line)').inputValue()).toBe('https://app.example.com\nhttps://admin.example.com');
    await expect(page.getByLabel('Require subscriberHash (HMAC) for Inbox sessions').isChecked()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'settings-inbox');
    expect(page.errors).toEqual([]);
    await page.close();

    expect((await viewer.request('/v1/environments/me', { method: 'PATCH', json: { inboxHmac: false } })).status).toBe(403);
    expect((await json(await admin.request('/v1/environments/me'))).body.data.inboxHmac).toBe(true);
  });

  it('Activity: filters by step status, and a topic trigger’s notification shows its fan-out progress', async () => {
    await created('/v2/workflows', { name: 'Bell', workflowId: 'bell', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'Ding' } }] });
    await created('/v2/workflows', { name: 'Later', workflowId: 'later', steps: [{ type: 'delay', name: 'Wait', controlValues: { amount: 1, unit: 'hours' } }, { type: 'in_app', name: 'Bell', controlValues: { body: 'Later' } }] });
    for (const id of ['t-1', 't-2', 't-3']) await created('/v2/subscribers', { subscriberId: id });
    await created('/v2/topics/crew/subscriptions', { subscriptions: ['t-1', 't-2', 't-3'] });
    await created('/v1/events/trigger', { name: 'bell', to: [{ type: 'Topic', topicKey: 'crew' }], transactionId: 'tx-crew' });
    await created('/v1/events/trigger', { name: 'later', to: 'lin', transactionId: 'tx-later' });

    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Activity');
    const rows = page.getByRole('row').filter({ hasText: /tx-(crew|later)/ });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(4);
    await page.getByLabel('Step status').selectOption('delayed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('tx-later')]);
    await page.getByLabel('Step status').selectOption('completed');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The delayed trigger has no completed step yet; the topic's three in-app steps are done.
    await expect.poll(() => rows.allTextContents(), { timeout: 20_000 }).toEqual([0, 1, 2].map(() => expect.stringContaining('tx-crew')));
    expect(new URL(page.url()).searchParams.get('status')).toBe('completed');
    await expectAccessible(page);
    await screenshot(page, 'activity-status-filter');

    await rows.first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /^Bell to t-/ }).waitFor();
    const fanout = page.getByRole('region', { name: 'Topic fan-out' });
    await expect(fanout.getByTestId('fanout-progress').textContent()).resolves.toBe('3 of 3 recipients expanded');
    await fanout.getByText(/\(done /).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'notification-fanout');
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
