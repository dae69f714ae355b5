import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAdmin } from './support/dashboard';
import { expectAccessible, newPage, openBrowser, openNav, prepareDashboard, screenshot, signInUi, type Browser } from './support/dashboard-browser';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';

// The dashboard's main path in a real browser against the running service: an SMTP integration,
// a workflow with an in-app and an email step, its preview, a test trigger, the email on the wire
// and the notification's timeline in Activity updating without a reload.
let svc: TestService;
let smtp: SmtpFake;
let chromium: Browser;

beforeAll(async () => {
  prepareDashboard();
  smtp = await startSmtpFake();
  // The SMTP server is on loopback: a private address the service refuses unless told.
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  await setUpAdmin(svc);
  chromium = await openBrowser();
}, 600_000);
afterAll(async () => {
  await chromium?.close();
  await svc?.dispose();
  await smtp?.close();
});

describe('a workflow from the dashboard, end to end in a real browser', { timeout: 180_000 }, () => {
  it('adds an SMTP integration, builds and previews a workflow, triggers it and follows it in Activity', async () => {
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');

    // Integrations: the SMTP server inside this test, made primary for email.
    await openNav(page, 'Integrations');
    await page.getByLabel('Channel', { exact: true }).selectOption('email');
    await page.getByLabel('Provider', { exact: true }).selectOption('nodemailer');
    await page.getByLabel('Name', { exact: true }).fill('Test SMTP');
    await page.getByLabel('host (required)').fill(smtp.host);
    await page.getByLabel('port (required)').fill(String(smtp.port));
    await page.getByLabel('from (required)').fill('shop@herald.test');
    await page.getByRole('button', { name: 'Add integration' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Test SMTP' });
    await row.waitFor();
    if (await row.getByRole('button', { name: 'Make primary' }).count()) await row.getByRole('button', { name: 'Make primary' }).click();
    await row.getByText('primary', { exact: true }).waitFor();
    // Send a test: the provider's answer on the page, the message on the wire.
    await page.getByLabel('Test recipient for Test SMTP').fill('probe@example.com');
    await page.getByRole('form', { name: 'Send a test through Test SMTP' }).getByRole('button', { name: 'Send a test' }).click();
    await expect(page.getByTestId('test-result').textContent()).resolves.toMatch(/^Sent.*250 queued as fake-1/);
    expect(smtp.messages.map((m) => m.envelope.to)).toEqual([['probe@example.com']]);
    smtp.messages.length = 0;
    await expectAccessible(page);
    await screenshot(page, 'integrations');

    // Workflows: an in-app step and an email step, in that order.
    await openNav(page, 'Workflows');
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Order shipped');
    await page.getByLabel('Step type').selectOption('in_app');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step type').selectOption('email');
    await page.getByRole('button', { name: 'Add step' }).click();
    const inApp = page.getByRole('group', { name: 'In-app (in_app)' });
    await inApp.getByLabel('Body').fill('Order {{payload.orderId}} is on its way');
    const email = page.getByRole('group', { name: 'Email (email)' });
    await email.getByLabel('Subject').fill('Order {{payload.orderId}} shipped');
    await email.getByLabel('Body (HTML)').fill('<h2>Good news</h2><p>Order {{payload.orderId}} left the warehouse.</p>');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow Order shipped' }).waitFor();
    const saved = await (await svc.request('/v2/workflows/order-shipped')).json();
    expect(saved.data.steps.map((s: { type: string }) => s.type)).toEqual(['in_app', 'email']);

    // The server's preview: the email's HTML in a sandboxed frame, re-rendered as the payload changes.
    await page.getByLabel('Step', { exact: true }).selectOption({ label: 'Email (email)' });
    await page.getByLabel('Preview payload (JSON)').fill('{"orderId": "A-17"}');
    const frame = page.frameLocator('iframe[title="Email preview"]');
    await frame.getByText('Order A-17 left the warehouse.').waitFor();
    await page.getByTestId('preview').getByText('Order A-17 shipped').waitFor();
    await expect(page.locator('iframe[title="Email preview"]').getAttribute('sandbox')).resolves.toBe('');
    await expectAccessible(page);
    await screenshot(page, 'workflow-editor');

    // Trigger a test, then follow it: the page jumps to its activity.
    await page.getByLabel('Subscriber id').fill('sam');
    await page.getByLabel('Subscriber email (optional)').fill('sam@example.com');
    await page.getByLabel('Payload (JSON)', { exact: true }).fill('{"orderId": "A-17"}');
    await page.getByRole('button', { name: 'Trigger' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(new URL(page.url()).searchParams.get('transactionId')).toBeTruthy();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole('row').filter({ hasText: 'Order shipped' }).getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Order shipped to sam' }).waitFor();

    // The timeline fills in as the steps run, without a reload: the email step ends sent, with the provider's answer.
    const emailStep = page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: '(email)' });
    await emailStep.locator('.status', { hasText: 'completed' }).waitFor({ timeout: 20_000 });
    await emailStep.getByText(/^sent via /).waitFor();
    await page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: '(in_app)' }).getByText('in-app message stored in the inbox of sam').waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'notification');

    // The email arrived at the SMTP server, rendered.
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0].envelope.to).toEqual(['sam@example.com']);
    expect(smtp.messages[0].mail.subject).toBe('Order A-17 shipped');
    expect(smtp.messages[0].mail.html).toContain('Order A-17 left the warehouse.');
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('shows a new notification in the Activity list without a reload', async () => {
    const workflow = { name: 'Live', workflowId: 'live', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'Order {{payload.orderId}}' } }] };
    expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
    const page = await newPage(chromium.browser);
    await signInUi(page, svc, 'ada@example.com');
    await openNav(page, 'Activity');
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const trigger = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'live', to: 'lin', payload: { orderId: 'B-2' }, transactionId: 'tx-live-1' } });
    expect(trigger.status).toBe(201);
    await page.getByRole('row').filter({ hasText: 'tx-live-1' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The filters narrow the list: by subscriber.
    await page.getByLabel('Subscriber id').fill('lin');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => page.getByRole('row').filter({ hasText: 'tx-' }).count()).toBe(1);
    await page.getByLabel('Subscriber id').fill('nobody-here');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No notifications match.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'activity');
    await page.close();
  });
});
