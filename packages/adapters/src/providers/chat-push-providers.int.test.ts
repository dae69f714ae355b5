import type { OutboundMessage } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from '../../../../test/support/http-fake';
import { startProviderFake } from '../../../../test/support/provider-fakes';
import { fakeServiceAccount } from '../../../../test/support/service-account';
import { GuardedHttpClient } from '../http/guarded-http-client';
import { ChatWebhookProvider } from './chat-webhook-provider';
import { FcmPushProvider } from './fcm-push-provider';
import { GenericSmsProvider } from './generic-sms-provider';
import { SlackChatProvider } from './slack-chat-provider';

// @slack/web-api, firebase-admin and the webhook/HTTP providers against a loopback server speaking their APIs.
let fake: HttpFake;
const http = new GuardedHttpClient(true);
const fcm = new FcmPushProvider({ baseUrl: 'http://127.0.0.1:1' });
let fcmLive: FcmPushProvider;
beforeAll(async () => {
  fake = await startProviderFake();
  fcmLive = new FcmPushProvider({ baseUrl: fake.url });
});
afterAll(async () => {
  await Promise.all([fcm.close(), fcmLive?.close()]);
  await fake?.close();
});

const message = (channel: OutboundMessage['channel'], to: Partial<OutboundMessage['to']>, extra: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel,
  to: { subscriberId: 'ada', ...to },
  subject: 'Order A-1',
  body: 'Order A-1 shipped',
  transactionId: 'tx-1',
  idempotencyKey: 'job-1',
  overrides: {},
  ...extra,
});

describe('SlackChatProvider (@slack/web-api)', () => {
  const slack = () => new SlackChatProvider(http, { baseUrl: fake.url });

  it('posts the rendered text to the endpoint channel with the connection bot token', async () => {
    const receipt = await slack().send(message('chat', { chatChannel: 'C0123' }, { auth: { accessToken: 'xoxb-bot-1' } }), {});
    const [request] = fake.to('/api/chat.postMessage').splice(-1);
    expect(request.headers.authorization).toBe('Bearer xoxb-bot-1');
    expect(request.json).toMatchObject({ channel: 'C0123', text: 'Order A-1 shipped' });
    expect(receipt.providerMessageId).toMatch(/^\d+/);
  });

  it('invalid_auth is permanent, ratelimited honours Retry-After, a 503 is transient', async () => {
    fake.failNext('/api/chat.postMessage', 1, { status: 200, body: { ok: false, error: 'invalid_auth' } });
    await expect(slack().send(message('chat', { chatChannel: 'C0123' }, { auth: { accessToken: 'xoxb-bad' } }), {})).rejects.toMatchObject({
      retryable: false,
      message: 'Slack answered invalid_auth (check the channel connection token)',
    });
    fake.failNext('/api/chat.postMessage', 1, { status: 429, headers: { 'retry-after': '3' }, body: { ok: false, error: 'ratelimited' } });
    await expect(slack().send(message('chat', { chatChannel: 'C0123' }, { auth: { accessToken: 'xoxb-bot-1' } }), {})).rejects.toMatchObject({ retryable: true, extra: { retryAfterMs: 3_000 } });
    fake.failNext('/api/chat.postMessage', 1, { status: 503, body: 'unavailable' });
    await expect(slack().send(message('chat', { chatChannel: 'C0123' }, { auth: { accessToken: 'xoxb-bot-1' } }), {})).rejects.toMatchObject({ retryable: true });
  });

  it('without a channel, uses the subscriber incoming webhook', async () => {
    await slack().send(message('chat', { webhookUrl: `${fake.url}/hooks/slack/T1/B1` }), {});
    expect(fake.to('/hooks/slack/T1/B1').at(-1)?.json).toEqual({ text: 'Order A-1 shipped' });
  });
});

describe('ChatWebhookProvider', () => {
  it.each([
    ['discord', { content: 'Order A-1 shipped' }],
    ['mattermost', { text: 'Order A-1 shipped' }],
    ['msteams', { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: 'Order A-1 shipped', wrap: true }] } }] }],
  ] as const)('%s gets the body its incoming webhook expects', async (format, body) => {
    await new ChatWebhookProvider(http, format).send(message('chat', { webhookUrl: `${fake.url}/hooks/${format}` }), {});
    expect(fake.to(`/hooks/${format}`).at(-1)?.json).toEqual(body);
  });

  it('a 404 (deleted webhook) is permanent and the URL is not in the raw answer', async () => {
    fake.failNext('/hooks/gone', 1, { status: 404, body: `no webhook at ${fake.url}/hooks/gone` });
    const error = await new ChatWebhookProvider(http, 'discord').send(message('chat', { webhookUrl: `${fake.url}/hooks/gone` }), {}).catch((e) => e);
    expect(error).toMatchObject({ retryable: false, extra: { code: '404' } });
    expect(error.raw).not.toContain('/hooks/gone');
  });
});

describe('GenericSmsProvider', () => {
  it('posts to the gateway with the API key header and reads the id at idPath', async () => {
    const credentials = { baseUrl: `${fake.url}/sms/send`, apiKeyRequestHeader: 'x-api-key', apiKey: 'gw-key-1', from: 'Herald', idPath: 'id' };
    const receipt = await new GenericSmsProvider(http).send(message('sms', { phone: '+15550001111' }), credentials);
    const [request] = fake.to('/sms/send').splice(-1);
    expect(request.headers['x-api-key']).toBe('gw-key-1');
    expect(request.json).toEqual({ to: '+15550001111', from: 'Herald', content: 'Order A-1 shipped', transactionId: 'tx-1' });
    expect(receipt.providerMessageId).toMatch(/^sms-/);
  });
});

describe('FcmPushProvider (firebase-admin)', () => {
  const serviceAccount = fakeServiceAccount();

  it('gets an OAuth token with the service account, sends to each device token, reports stale tokens', async () => {
    const receipt = await fcmLive.send(
      message('push', { deviceTokens: ['device-1', 'stale-2'] }, { overrides: { data: { orderId: 'A-1', n: 2 }, sound: 'chime' } }),
      { serviceAccount },
    );
    expect(fake.to('/token').length).toBeGreaterThan(0);
    const sends = fake.to('/v1/projects/herald-test/messages:send');
    expect(sends.map((r) => r.json.message.token)).toEqual(['device-1', 'stale-2']);
    expect(sends[0].headers.authorization).toBe('Bearer fake-oauth-token');
    expect(sends[0].json.message).toMatchObject({
      notification: { title: 'Order A-1', body: 'Order A-1 shipped' },
      data: { orderId: 'A-1', n: '2' },
      android: { notification: { sound: 'chime' } },
    });
    expect(receipt).toMatchObject({ providerMessageId: expect.stringMatching(/^projects\/p\/messages\/fcm-/), invalidDeviceTokens: ['stale-2'] });
  });

  it('only stale tokens: a permanent failure that still reports them; a dead endpoint is transient', async () => {
    await expect(fcmLive.send(message('push', { deviceTokens: ['stale-9'] }), { serviceAccount })).rejects.toMatchObject({
      retryable: false,
      extra: { invalidDeviceTokens: ['stale-9'] },
    });
    await expect(fcm.send(message('push', { deviceTokens: ['device-1'] }), { serviceAccount })).rejects.toMatchObject({ retryable: true });
  });
});
