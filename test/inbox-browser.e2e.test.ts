import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium, launchChromium } from './support/chromium';
import { rawRequest } from './support/raw-request';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

const BUNDLE = fileURLToPath(new URL('../apps/http/dist/inbox-demo/inbox-demo.js', import.meta.url));
const BUILD = fileURLToPath(new URL('../apps/http/scripts/build-inbox-demo.mjs', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

let svc: TestService;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
const outside: string[] = [];

beforeAll(async () => {
  ensureChromium();
  if (!existsSync(BUNDLE)) execFileSync(process.execPath, [BUILD], { stdio: 'inherit' });
  svc = await startService();
  const workflow = {
    name: 'Welcome',
    workflowId: 'welcome',
    steps: [{ name: 'Inbox', type: 'in_app', controlValues: { subject: 'Welcome aboard', body: 'Hello {{payload.name}}, your account is ready' } }],
  };
  expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
  chromium = await launchChromium();
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
});

/** Opens the demo page; resolves once the Inbox is drawn and its socket is connected (socket.io's "40" frame). */
async function openDemo(subscriberId: string): Promise<Page> {
  const page = await chromium.browser.newPage();
  const live = new Promise<void>((resolve) =>
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).startsWith('40') && resolve())),
  );
  // The page must need nothing but this Herald.
  page.on('request', (request) => {
    if (!request.url().startsWith(svc.url) && !request.url().startsWith(svc.url.replace('http', 'ws')) && !request.url().startsWith('data:')) outside.push(request.url());
  });
  await page.goto(`${svc.url}/inbox/demo?subscriberId=${subscriberId}`);
  await page.locator('.nv-bellContainer').first().waitFor({ timeout: 20_000 });
  await live;
  return page;
}

describe('the demo page in a real browser', () => {
  it('shows a triggered notification and the unread badge without a reload', async () => {
    const page = await openDemo('eve');
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    expect(await page.locator('.nv-bellDot').count()).toBe(0);
    await page.locator('.nv-bellContainer').first().click();

    const response = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'welcome', to: 'eve', payload: { name: 'Eve' } } });
    expect(response.status).toBe(201);

    await page.getByText('Hello Eve, your account is ready').waitFor({ timeout: 15_000 });
    await page.locator('.nv-bellDot').first().waitFor({ state: 'attached', timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}inbox-demo.png` });
    expect(outside).toEqual([]);
    await page.close();
  });

  it('takes Herald’s URL from the origin the browser loaded it from, never from the Host header', async () => {
    const forged = await rawRequest(svc.url, { method: 'GET', path: '/inbox/demo?subscriberId=eve', headers: { host: 'evil.example:666' } });
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain('evil.example');
    const page = await openDemo('eve');
    expect(await page.evaluate(() => (window as unknown as { HERALD_INBOX: { apiUrl: string } }).HERALD_INBOX.apiUrl)).toBe(svc.url);
    expect(await page.locator('pre').textContent()).toContain(`curl -X POST ${svc.url}/v1/events/trigger`);
    await page.close();
  });

  it("marks all read and archives all from the Inbox's own menu, with the body it sends for all ({\"tags\":[]})", async () => {
    for (const name of ['One', 'Two']) {
      expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'welcome', to: 'frank', payload: { name } } })).status).toBe(201);
    }
    const page = await openDemo('frank');
    await page.locator('.nv-bellContainer').first().click();
    await page.getByText('Hello Two, your account is ready').waitFor({ timeout: 15_000 });
    const bulk = async (label: string, path: string) => {
      const sent = page.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === 'POST');
      await page.locator('.nv-moreActions__dropdownTrigger').first().click();
      await page.getByText(label).click();
      const response = await sent;
      return { status: response.status(), body: response.request().postDataJSON() };
    };
    const inbox = async () => ((await (await svc.request('/v2/subscribers/frank/notifications')).json()) as { data: Array<{ isRead: boolean; isArchived: boolean }> }).data;
    expect(await bulk('Mark all as read', '/v1/inbox/notifications/read')).toEqual({ status: 204, body: { tags: [] } });
    expect((await inbox()).map((n) => n.isRead)).toEqual([true, true]);
    expect(await bulk('Archive all', '/v1/inbox/notifications/archive')).toEqual({ status: 204, body: { tags: [] } });
    expect((await inbox()).map((n) => n.isArchived)).toEqual([true, true]);
    await page.close();
  });

  it("edits the subscriber's delivery schedule through the Inbox's own preferences screen", async () => {
    const page = await openDemo('sky');
    const schedule = async () => (await (await svc.request('/v2/subscribers/sky/preferences')).json()).data.global.schedule;
    await page.locator('.nv-bellContainer').first().click();
    await page.locator('.nv-preferences__button').first().click();
    // The schedule's own switch: turning it on stores the Inbox's default week.
    await page.locator('.nv-scheduleActionsContainer label').first().click();
    const nineToFive = { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] };
    await waitFor(async () => (await schedule())?.isEnabled === true);
    expect(await schedule()).toEqual({
      isEnabled: true,
      weeklySchedule: { monday: nineToFive, tuesday: nineToFive, wednesday: nineToFive, thursday: nineToFive, friday: nineToFive },
    });
    // A day's switch in the table turns that day on with the default hours.
    await page.locator('.nv-scheduleBodyRow', { hasText: 'Saturday' }).locator('label').first().click();
    await waitFor(async () => (await schedule())?.weeklySchedule?.saturday?.isEnabled === true);
    expect((await schedule()).weeklySchedule.saturday).toEqual(nineToFive);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}inbox-demo-schedule.png` });
    expect(outside).toEqual([]);
    await page.close();
  });
});
