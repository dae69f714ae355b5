import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invited, setUpAdmin, type DashboardClient } from './support/dashboard';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';

// The dashboard's "send a test" on an integration: one message through that integration to an
// address the user types, answered with what the provider said, over a real SMTP server.
let svc: TestService;
let smtp: SmtpFake;
let admin: DashboardClient;
let viewer: DashboardClient;
let integrationId: string;

interface TestResult {
  sent: boolean;
  providerId: string;
  providerMessageId?: string | null;
  error?: string;
  retryable?: boolean;
  raw: string | null;
}

const sendTest = async (client: DashboardClient, id: string, json: unknown) => {
  const res = await client.request(`/v1/integrations/${id}/test`, { method: 'POST', json });
  return { status: res.status, text: await res.text() };
};
const resultOf = (text: string) => (JSON.parse(text) as { data: TestResult }).data;

beforeAll(async () => {
  smtp = await startSmtpFake({ user: 'mailer', password: 'smtp-pass-42' });
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  admin = await setUpAdmin(svc);
  viewer = await invited(svc, admin, 'viewer@example.com', 'viewer');
  const credentials = { host: smtp.host, port: String(smtp.port), user: 'mailer', password: 'smtp-pass-42', from: 'shop@herald.test', senderName: 'Shop' };
  const created = await admin.request('/v1/integrations', { method: 'POST', json: { providerId: 'nodemailer', identifier: 'company-smtp', active: false, credentials } });
  expect(created.status).toBe(201);
  integrationId = ((await created.json()) as { data: { _id: string } }).data._id;
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await smtp?.close();
});

describe('sending a test through an integration', () => {
  it('delivers one message over SMTP, even while the integration is inactive, and answers with the provider\'s receipt; stores nothing', async () => {
    const { status, text } = await sendTest(admin, integrationId, { to: 'ada@example.com', subject: 'Does it work?', body: '<p>It does</p>' });
    expect(status).toBe(200);
    expect(resultOf(text)).toMatchObject({ sent: true, providerId: 'nodemailer', providerMessageId: expect.any(String) });
    expect(text).not.toContain('smtp-pass-42');
    const [{ mail, envelope, user }] = smtp.messages;
    expect(user).toBe('mailer');
    expect(envelope.to).toEqual(['ada@example.com']);
    expect(mail.subject).toBe('Does it work?');
    expect(mail.from?.value).toEqual([{ name: 'Shop', address: 'shop@herald.test' }]);
    expect((await (await admin.request('/v1/notifications')).json()) as { data: unknown[] }).toMatchObject({ data: [] });
    // By identifier, with an API key, and with the default subject.
    const byKey = await svc.request('/v1/integrations/company-smtp/test', { method: 'POST', json: { to: 'grace@example.com' } });
    expect(resultOf(await byKey.text())).toMatchObject({ sent: true });
    expect(smtp.messages[1].mail.subject).toBe('Test message from herald');
  });

  it("answers the provider's refusal as an answer (200, sent false), permanent or not", async () => {
    smtp.failNext(1, 550);
    const permanent = await sendTest(admin, integrationId, { to: 'ada@example.com' });
    expect(permanent.status).toBe(200);
    expect(resultOf(permanent.text)).toMatchObject({ sent: false, providerId: 'nodemailer', retryable: false, error: expect.stringContaining('550') });
    smtp.failNext(1, 451);
    expect(resultOf((await sendTest(admin, integrationId, { to: 'ada@example.com' })).text)).toMatchObject({ sent: false, retryable: true });

    const wrong = await admin.request(`/v1/integrations/${integrationId}`, { method: 'PUT', json: { credentials: { password: 'not-the-password' } } });
    expect(wrong.status).toBe(200);
    const refused = await sendTest(admin, integrationId, { to: 'ada@example.com' });
    expect(resultOf(refused.text)).toMatchObject({ sent: false, error: expect.stringMatching(/535|auth/i) });
    expect(refused.text).not.toContain('not-the-password');
    await admin.request(`/v1/integrations/${integrationId}`, { method: 'PUT', json: { credentials: { password: 'smtp-pass-42' } } });
  });

  it('names the field of a bad request, and is refused to viewers, to other sites and in another environment', async () => {
    const before = smtp.messages.length;
    const field = async (json: unknown, id = integrationId) => {
      const { status, text } = await sendTest(admin, id, json);
      return { status, fields: Object.keys((JSON.parse(text) as { errors?: Record<string, unknown> }).errors ?? {}) };
    };
    expect(await field({ to: '+15550100' })).toEqual({ status: 422, fields: ['to'] });
    expect(await field({ to: 'ada@example.com', cc: 'eve@example.com' })).toEqual({ status: 422, fields: ['cc'] });
    expect(await field({})).toEqual({ status: 422, fields: ['to'] });
    const inApp = ((await (await admin.request('/v1/integrations')).json()) as { data: Array<{ _id: string; channel: string }> }).data.find((i) => i.channel === 'in_app')!;
    expect(await field({ to: 'ada@example.com' }, inApp._id)).toEqual({ status: 422, fields: ['integrationId'] });
    expect((await sendTest(admin, '00000000-0000-4000-8000-000000000000', { to: 'ada@example.com' })).status).toBe(404);
    const production = admin.me.environments.find((e) => e.slug === 'production')!.id;
    expect((await admin.request(`/v1/integrations/${integrationId}/test`, { method: 'POST', json: { to: 'ada@example.com' }, headers: { 'herald-environment': production } })).status).toBe(404);
    expect((await sendTest(viewer, integrationId, { to: 'ada@example.com' })).status).toBe(403);
    expect((await admin.request(`/v1/integrations/${integrationId}/test`, { method: 'POST', json: { to: 'ada@example.com' }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(smtp.messages.length).toBe(before);
  });
});
