import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from './support/http-fake';
import { startProviderFake } from './support/provider-fakes';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { fakeServiceAccount } from './support/service-account';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Real providers through their real SDKs, against loopback fakes of their protocols. Each test routes
// its trigger to its own integrations with integration conditions on payload.route.
let svc: TestService;
let novu: Novu;
let smtp: SmtpFake;
let fake: HttpFake;

const route = (value: string) => [
  { isNegated: false, type: 'TEXT' as const, value: 'AND' as const, children: [{ field: 'route', value, operator: 'EQUAL' as const, on: 'payload' as const }] },
];
const steps = (transactionId: string) => waitFor(() => finishedSteps(svc.databaseUrl, transactionId), 30_000);
let created = 0;
async function integration(providerId: string, routeValue: string, credentials: Record<string, unknown>, channel?: 'email' | 'sms' | 'chat' | 'push') {
  const identifier = `${providerId}-${routeValue}-${++created}`;
  await novu.integrations.create({ providerId, identifier, name: identifier, credentials, conditions: route(routeValue), active: true, ...(channel ? { channel } : {}) });
  return identifier;
}
// Workers read an environment's integrations at most every 2 s.
const integrationsVisible = () => new Promise((r) => setTimeout(r, 2_100));

beforeAll(async () => {
  [smtp, fake] = await Promise.all([startSmtpFake({ user: 'mailer', password: 'smtp-pass-1' }), startProviderFake()]);
  const endpoints = { sendgrid: fake.url, resend: fake.url, twilio: fake.url, slack: fake.url, fcm: fake.url };
  svc = await startService({
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_PROVIDER_ENDPOINTS: JSON.stringify(endpoints),
    // Retries after 100 ms, then 200 ms, instead of minutes.
    HERALD_RETRY_POLICY: JSON.stringify({ initialDelayMs: 100, jitter: 0 }),
  });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.subscribers.create({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com', phone: '+15550001111' });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'shipped' }, [
    { type: 'email', stepId: 'mail', controlValues: { subject: 'Order {{payload.orderId}} shipped', body: '<p>Hi {{subscriber.firstName}}, order {{payload.orderId}} is on its way</p>' } },
  ]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'shipped-sms' }, [{ type: 'sms', stepId: 'text', controlValues: { body: 'Hi {{subscriber.firstName}}: {{payload.orderId}} shipped' } }]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'shipped-chat' }, [{ type: 'chat', stepId: 'chat', controlValues: { body: 'Order {{payload.orderId}} shipped to {{subscriber.firstName}}' } }]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'shipped-push' }, [
    { type: 'push', stepId: 'push', controlValues: { subject: 'Order {{payload.orderId}}', body: 'On its way, {{subscriber.firstName}}' } },
  ]);
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await Promise.all([smtp?.close(), fake?.close()]);
});

async function trigger(workflowId: string, transactionId: string, payload: Record<string, unknown>, overrides?: Record<string, unknown>) {
  await novu.trigger({ workflowId, to: 'ada', payload, transactionId, overrides });
  return steps(transactionId);
}

describe('email providers', () => {
  it('nodemailer delivers over real SMTP exactly what the step rendered, with the trigger overrides', async () => {
    const id = await integration('nodemailer', 'smtp', { host: smtp.host, port: String(smtp.port), user: 'mailer', password: 'smtp-pass-1', from: 'shop@herald.test', senderName: 'Shop' });
    await integrationsVisible();
    const [step] = await trigger('shipped', 'tx-smtp', { route: 'smtp', orderId: 'A-1' }, { email: { replyTo: 'help@herald.test', cc: ['boss@example.com'] } });
    expect(step.status).toBe('completed');
    const [{ mail, envelope }] = smtp.messages;
    expect(mail.subject).toBe('Order A-1 shipped');
    expect(mail.from?.value).toEqual([{ name: 'Shop', address: 'shop@herald.test' }]);
    expect(mail.to && 'value' in mail.to ? mail.to.value.map((a) => a.address) : []).toEqual(['ada@example.com']);
    expect((mail.html as string).trimEnd()).toBe('<p>Hi Ada, order A-1 is on its way</p>');
    expect(mail.replyTo?.text).toBe('help@herald.test');
    expect(envelope.to.sort()).toEqual(['ada@example.com', 'boss@example.com']);
    expect(step.details.map((d) => d.detail)).toEqual([`sent via nodemailer (${id}), message id ${mail.messageId}`]);
    expect(step.message).toMatchObject({ provider_id: 'nodemailer', provider_message_id: mail.messageId });
  });

  it('SendGrid receives exactly the rendered email', async () => {
    await integration('sendgrid', 'sendgrid', { apiKey: 'SG.key-1', from: 'shop@herald.test' });
    await integrationsVisible();
    const [step] = await trigger('shipped', 'tx-sendgrid', { route: 'sendgrid', orderId: 'B-2' });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/v3/mail/send');
    expect(request.json).toMatchObject({
      from: { email: 'shop@herald.test' },
      subject: 'Order B-2 shipped',
      content: [{ type: 'text/html', value: '<p>Hi Ada, order B-2 is on its way</p>' }],
      personalizations: [{ to: [{ email: 'ada@example.com' }] }],
    });
    expect(step.message?.provider_message_id).toMatch(/^sg-/);
  });

  it('Resend receives the rendered email with the job id as its Idempotency-Key', async () => {
    await integration('resend', 'resend', { apiKey: 're_key_1', from: 'shop@herald.test' });
    await integrationsVisible();
    const [step] = await trigger('shipped', 'tx-resend', { route: 'resend', orderId: 'C-3' });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/emails');
    expect(request.json).toMatchObject({ from: 'shop@herald.test', to: 'ada@example.com', subject: 'Order C-3 shipped', html: '<p>Hi Ada, order C-3 is on its way</p>' });
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('sms providers', () => {
  it('Twilio receives the rendered text, from the override', async () => {
    await integration('twilio', 'twilio', { accountSid: 'AC-main', token: 'tw-token-1', from: '+15559990000' });
    await integrationsVisible();
    const [step] = await trigger('shipped-sms', 'tx-twilio', { route: 'twilio', orderId: 'D-4' }, { sms: { from: '+15558887777' } });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/2010-04-01/Accounts/AC-main/');
    expect(request.json).toEqual({ To: '+15550001111', From: '+15558887777', Body: 'Hi Ada: D-4 shipped' });
  });
});

describe('sms: generic-sms', () => {
  it('the gateway receives the rendered text with its API key header', async () => {
    await integration('generic-sms', 'gateway', { baseUrl: `${fake.url}/sms/out`, apiKeyRequestHeader: 'x-api-key', apiKey: 'gw-key-1', from: 'Shop' });
    await integrationsVisible();
    const [step] = await trigger('shipped-sms', 'tx-generic-sms', { route: 'gateway', orderId: 'H-8' });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/sms/out');
    expect(request.headers['x-api-key']).toBe('gw-key-1');
    expect(request.json).toMatchObject({ to: '+15550001111', from: 'Shop', content: 'Hi Ada: H-8 shipped' });
  });
});

describe('chat providers', () => {
  it('Slack: chat.postMessage to the subscriber endpoint channel with the channel connection bot token', async () => {
    const slack = await integration('slack', 'slack', {}, 'chat');
    await novu.channelConnections.create({ identifier: 'ada-slack', subscriberId: 'ada', integrationIdentifier: slack, workspace: { id: 'T1' }, auth: { accessToken: 'xoxb-ada-1' } });
    await novu.channelEndpoints.create({ identifier: 'ada-slack-ch', subscriberId: 'ada', integrationIdentifier: slack, connectionIdentifier: 'ada-slack', type: 'slack_channel', endpoint: { channelId: 'C42' } });
    await integrationsVisible();
    const [step] = await trigger('shipped-chat', 'tx-slack', { route: 'slack', orderId: 'I-9' });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/api/chat.postMessage');
    expect(request.headers.authorization).toBe('Bearer xoxb-ada-1');
    expect(request.json).toMatchObject({ channel: 'C42', text: 'Order I-9 shipped to Ada' });
    expect(JSON.stringify(step.message?.destination)).not.toContain('xoxb');
  });

  it('Discord: the incoming webhook of the subscriber webhook endpoint receives the rendered text', async () => {
    const discord = await integration('discord', 'discord', {}, 'chat');
    await novu.channelEndpoints.create({ identifier: 'ada-discord', subscriberId: 'ada', integrationIdentifier: discord, type: 'webhook', endpoint: { url: `${fake.url}/hooks/discord/ada` } });
    await integrationsVisible();
    const [step] = await trigger('shipped-chat', 'tx-discord', { route: 'discord', orderId: 'J-10' });
    expect(step.status).toBe('completed');
    expect(fake.to('/hooks/discord/ada').map((r) => r.json)).toEqual([{ content: 'Order J-10 shipped to Ada' }]);
  });
});

describe('push providers', () => {
  it('FCM: each device token gets the rendered notification; a token FCM calls unregistered is removed from the subscriber', async () => {
    const fcm = await integration('fcm', 'fcm', { serviceAccount: fakeServiceAccount('herald-e2e') }, 'push');
    const [{ id }] = await queryDatabase<{ id: string }>(svc.databaseUrl, `SELECT id FROM integrations WHERE identifier = $1`, [fcm]);
    const channels = [{ providerId: 'fcm', integrationIdentifier: fcm, _integrationId: id, credentials: { deviceTokens: ['device-a', 'stale-b'] } }];
    await queryDatabase(svc.databaseUrl, `UPDATE subscribers SET channels = $1::jsonb WHERE subscriber_id = 'ada'`, [JSON.stringify(channels)]);
    await integrationsVisible();
    const [step] = await trigger('shipped-push', 'tx-fcm', { route: 'fcm', orderId: 'K-11' }, { push: { data: { orderId: 'K-11' }, sound: 'chime' } });
    expect(step.status).toBe('completed');
    const sends = fake.to('/v1/projects/herald-e2e/messages:send');
    expect(sends.map((r) => r.json.message.token)).toEqual(['device-a', 'stale-b']);
    expect(sends[0].json.message).toMatchObject({ notification: { title: 'Order K-11', body: 'On its way, Ada' }, data: { orderId: 'K-11' }, android: { notification: { sound: 'chime' } } });
    expect(step.details.map((d) => d.detail)).toContain('removed 1 device token(s) fcm reported invalid from subscriber ada');
    const [ada] = await queryDatabase<{ channels: typeof channels }>(svc.databaseUrl, `SELECT channels FROM subscribers WHERE subscriber_id = 'ada'`);
    expect(ada.channels[0].credentials.deviceTokens).toEqual(['device-a']);
  });
});

describe('push: push-webhook', () => {
  it('the webhook receives the rendered push with the device tokens, signed with the integration secret', async () => {
    const hook = await integration('push-webhook', 'push-hook', { webhookUrl: `${fake.url}/hooks/push`, secretKey: 'push-secret-1' }, 'push');
    const [{ id }] = await queryDatabase<{ id: string }>(svc.databaseUrl, `SELECT id FROM integrations WHERE identifier = $1`, [hook]);
    const channels = [{ providerId: 'push-webhook', integrationIdentifier: hook, _integrationId: id, credentials: { deviceTokens: ['web-push-1'] } }];
    await queryDatabase(svc.databaseUrl, `UPDATE subscribers SET channels = $1::jsonb WHERE subscriber_id = 'ada'`, [JSON.stringify(channels)]);
    await integrationsVisible();
    const [step] = await trigger('shipped-push', 'tx-push-hook', { route: 'push-hook', orderId: 'M-13' });
    expect(step.status).toBe('completed');
    const [request] = fake.to('/hooks/push');
    expect(request.json).toMatchObject({ channel: 'push', subject: 'Order M-13', body: 'On its way, Ada', to: { deviceTokens: ['web-push-1'] } });
    expect(request.headers['herald-signature']).toBeTruthy();
  });
});

describe('retries and failover', () => {
  it('503 twice, then success: delivered once, three execution details, retries marked', async () => {
    const id = await integration('twilio', 'flaky', { accountSid: 'AC-flaky', token: 'tw-token-2', from: '+15559990000' });
    await integrationsVisible();
    fake.failNext('/2010-04-01/Accounts/AC-flaky/', 2, { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } });
    const [step] = await trigger('shipped-sms', 'tx-flaky', { route: 'flaky', orderId: 'E-5' });
    expect(step.status).toBe('completed');
    expect(fake.to('/2010-04-01/Accounts/AC-flaky/')).toHaveLength(3);
    expect(step.details.map((d) => [d.status, d.detail, d.is_retry])).toEqual([
      ['Failed', `provider error: twilio (${id}): answered 503: Service unavailable (Twilio error 20503) [503] (attempt 1, retrying in 100 ms)`, false],
      ['Failed', `provider error: twilio (${id}): answered 503: Service unavailable (Twilio error 20503) [503] (attempt 2, retrying in 200 ms)`, true],
      ['Success', expect.stringMatching(new RegExp(`^sent via twilio \\(${id}\\), message id SM-`)), true],
    ]);
    expect(step.details[0].raw).toContain('Service unavailable');
  });

  it('a primary that always fails: the secondary delivers, the failures and the failover are recorded', async () => {
    const primary = await integration('sendgrid', 'failover', { apiKey: 'SG.down', from: 'shop@herald.test' });
    const secondary = await integration('resend', 'failover', { apiKey: 're_up', from: 'shop@herald.test' });
    await integrationsVisible();
    fake.failNext('/v3/mail/send', 1_000, { status: 500, body: { errors: [{ message: 'internal error' }] } });
    const [step] = await trigger('shipped', 'tx-failover', { route: 'failover', orderId: 'F-6' });
    fake.failNext('/v3/mail/send', 0, { status: 500 });
    expect(step.status).toBe('completed');
    expect(step.provider_id).toBe('resend');
    expect(step.details.map((d) => [d.status, d.provider_id])).toEqual([
      ['Failed', 'sendgrid'],
      ['Failed', 'sendgrid'],
      ['Warning', 'resend'],
      ['Success', 'resend'],
    ]);
    expect(step.details[2].detail).toBe(`failing over from sendgrid (${primary}) to resend (${secondary})`);
    expect(step.message?.provider_id).toBe('resend');
    // The activity log says which integration delivered.
    const activity = (await (await svc.request('/v1/notifications?transactionId=tx-failover')).json()) as { data: Array<{ jobs: Array<{ providerId: string; executionDetails: Array<{ detail: string }> }> }> };
    const job = activity.data[0].jobs[0];
    expect(job.providerId).toBe('resend');
    expect(job.executionDetails.at(-1)?.detail).toMatch(new RegExp(`^sent via resend \\(${secondary}\\)`));
  });

  it('a 401: no retry, one Failed execution detail with a readable reason, no fallback to the development sink', async () => {
    const id = await integration('sendgrid', 'denied', { apiKey: 'SG.revoked-key', from: 'shop@herald.test' });
    await integrationsVisible();
    const before = fake.to('/v3/mail/send').length;
    fake.failNext('/v3/mail/send', 1, { status: 401, body: { errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked' }] } });
    const [step] = await trigger('shipped', 'tx-denied', { route: 'denied', orderId: 'G-7' });
    expect(step.status).toBe('failed');
    expect(fake.to('/v3/mail/send').length - before).toBe(1);
    expect(step.details.map((d) => [d.status, d.detail])).toEqual([
      ['Failed', `provider error: sendgrid (${id}): answered 401: The provided authorization grant is invalid, expired, or revoked (check the integration credentials) [401] (attempt 1, permanent, not retried)`],
    ]);
    expect(step.details[0].raw).not.toContain('SG.revoked-key');
  });
});

describe('the retry policy, set per environment with the operator command', () => {
  const herald = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'apps/http/src/cli.ts', ...args], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, DATABASE_URL: svc.databaseUrl },
      encoding: 'utf8',
    });

  // The last test of the file: the policy it sets stays (each CLI start costs seconds on a busy machine).
  it('pnpm herald retry-policy set limits the attempts', async () => {
    const set = herald('retry-policy', 'set', '{"maxAttempts":2,"initialDelayMs":100,"jitter":0}', '--environment', 'development');
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('"maxAttempts":2');
    const id = await integration('twilio', 'give-up', { accountSid: 'AC-down', token: 'tw-token-3', from: '+15559990000' });
    await integrationsVisible();
    fake.failNext('/2010-04-01/Accounts/AC-down/', 100, { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } });
    const [step] = await trigger('shipped-sms', 'tx-give-up', { route: 'give-up', orderId: 'L-12' });
    expect(step.status).toBe('failed');
    expect(step.details.map((d) => d.detail)).toEqual([
      `provider error: twilio (${id}): answered 503: Service unavailable (Twilio error 20503) [503] (attempt 1, retrying in 100 ms)`,
      `provider error: twilio (${id}): answered 503: Service unavailable (Twilio error 20503) [503] (attempt 2, gave up after 2 attempts)`,
    ]);
  }, 60_000);
});
