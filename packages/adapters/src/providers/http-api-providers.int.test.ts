import { ProviderError, type OutboundMessage } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from '../../../../test/support/http-fake';
import { outboundEmail, startProviderFake } from '../../../../test/support/provider-fakes';
import { ResendEmailProvider } from './resend-email-provider';
import { SendGridEmailProvider } from './sendgrid-email-provider';
import { TwilioSmsProvider } from './twilio-sms-provider';

// The real SendGrid, Resend and Twilio SDKs, pointed at a loopback server that speaks their APIs.
let fake: HttpFake;
beforeAll(async () => {
  fake = await startProviderFake();
});
afterAll(() => fake?.close());

const email = outboundEmail;
const sms: OutboundMessage = { channel: 'sms', to: { phone: '+15550001111', subscriberId: 'ada' }, body: 'Order A-1 shipped', transactionId: 'tx-2', idempotencyKey: 'job-2', overrides: {} };

describe('SendGridEmailProvider (@sendgrid/mail)', () => {
  const provider = () => new SendGridEmailProvider({ baseUrl: fake.url });
  const credentials = { apiKey: 'SG.secret-key-1', from: 'noreply@herald.test', senderName: 'Herald' };

  it('sends the rendered email with the overrides and returns the x-message-id', async () => {
    const receipt = await provider().send(email({ replyTo: 'help@herald.test', bcc: ['audit@herald.test'] }), credentials);
    const [request] = fake.to('/v3/mail/send').splice(-1);
    expect(request.headers.authorization).toBe('Bearer SG.secret-key-1');
    expect(request.json).toMatchObject({
      from: { email: 'noreply@herald.test', name: 'Herald' },
      subject: 'Order A-1',
      content: [{ type: 'text/html', value: '<p>On its way</p>' }],
      personalizations: [{ to: [{ email: 'ada@example.com' }], bcc: [{ email: 'audit@herald.test' }] }],
      reply_to: { email: 'help@herald.test' },
    });
    expect(receipt.providerMessageId).toMatch(/^sg-/);
  });

  it('401 is permanent with a readable reason; 503 and 429 (Retry-After) are transient; no key in raw', async () => {
    fake.failNext('/v3/mail/send', 1, { status: 401, body: { errors: [{ message: 'The provided authorization grant is invalid' }] } });
    const denied = (await provider().send(email(), credentials).catch((e) => e)) as ProviderError;
    expect(denied).toMatchObject({ retryable: false, extra: { code: '401' } });
    expect(denied.message).toBe('answered 401: The provided authorization grant is invalid (check the integration credentials)');
    fake.failNext('/v3/mail/send', 1, { status: 503, body: { errors: [{ message: 'unavailable' }] } });
    await expect(provider().send(email(), credentials)).rejects.toMatchObject({ retryable: true, extra: { code: '503' } });
    fake.failNext('/v3/mail/send', 1, { status: 429, headers: { 'retry-after': '7' }, body: { errors: [{ message: 'too many' }] } });
    await expect(provider().send(email(), credentials)).rejects.toMatchObject({ retryable: true, extra: { retryAfterMs: 7_000 } });
    expect(String(denied.raw)).not.toContain('SG.secret-key-1');
  });
});

describe('ResendEmailProvider (resend)', () => {
  const provider = () => new ResendEmailProvider({ baseUrl: fake.url });
  const credentials = { apiKey: 're_secret_1', from: 'noreply@herald.test' };

  it('sends with the job id as Idempotency-Key and returns the email id', async () => {
    const receipt = await provider().send(email({ cc: 'boss@example.com' }), credentials);
    const [request] = fake.to('/emails').splice(-1);
    expect(request.headers['idempotency-key']).toBe('job-1');
    expect(request.json).toMatchObject({ from: 'noreply@herald.test', to: 'ada@example.com', subject: 'Order A-1', html: '<p>On its way</p>', cc: ['boss@example.com'] });
    expect(receipt.providerMessageId).toMatch(/^re-/);
  });

  it('maps 403 to permanent and 500 to transient', async () => {
    fake.failNext('/emails', 1, { status: 403, body: { statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid' } });
    await expect(provider().send(email(), credentials)).rejects.toMatchObject({ retryable: false, message: 'answered 403: invalid_api_key: API key is invalid (check the integration credentials)' });
    fake.failNext('/emails', 1, { status: 500, body: { statusCode: 500, name: 'internal_server_error', message: 'oops' } });
    await expect(provider().send(email(), credentials)).rejects.toMatchObject({ retryable: true });
  });
});

describe('TwilioSmsProvider (twilio)', () => {
  const provider = () => new TwilioSmsProvider({ baseUrl: fake.url });
  const credentials = { accountSid: 'AC123', token: 'twilio-secret-1', from: '+15559998888' };

  it('creates a message with the rendered body, the from override, and returns the sid', async () => {
    const receipt = await provider().send({ ...sms, overrides: { from: '+15557776666' } }, credentials);
    const [request] = fake.to('/2010-04-01/Accounts/AC123/Messages.json').splice(-1);
    expect(request.json).toMatchObject({ To: '+15550001111', From: '+15557776666', Body: 'Order A-1 shipped' });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('AC123:twilio-secret-1').toString('base64')}`);
    expect(receipt.providerMessageId).toMatch(/^SM-/);
  });

  it('an invalid number (400, Twilio 21211) is permanent, 503 transient, a dead server transient', async () => {
    fake.failNext('/2010-04-01', 1, { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    await expect(provider().send(sms, credentials)).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('Twilio error 21211') });
    fake.failNext('/2010-04-01', 1, { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } });
    await expect(provider().send(sms, credentials)).rejects.toMatchObject({ retryable: true });
    await expect(new TwilioSmsProvider({ baseUrl: 'http://127.0.0.1:1' }).send(sms, credentials)).rejects.toMatchObject({ retryable: true });
  });
});
