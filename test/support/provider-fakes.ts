import type { OutboundMessage } from '@herald/domain';
import { startHttpFake, type HttpFake } from './http-fake';

let ids = 0;
const nextId = (prefix: string) => `${prefix}-${++ids}`;

/**
 * One loopback server answering like each provider's API does on success (the paths their SDKs call):
 * SendGrid v3 mail send, Resend emails, Twilio Messages, Slack chat.postMessage, FCM v1 send with its
 * OAuth token endpoint, generic SMS and chat webhooks. Failures are injected per path with failNext.
 */
export async function startProviderFake(): Promise<HttpFake> {
  const fake = await startHttpFake();
  fake.route('POST', /^\/v3\/mail\/send$/, () => ({ status: 202, headers: { 'x-message-id': nextId('sg') } }));
  fake.route('POST', /^\/emails$/, () => ({ status: 200, body: { id: nextId('re') } }));
  fake.route('POST', /^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/, (r) => ({
    status: 201,
    body: { sid: nextId('SM'), status: 'queued', to: r.json.To, from: r.json.From, body: r.json.Body },
  }));
  fake.route('POST', /^\/api\/chat\.postMessage$/, (r) => ({ status: 200, body: { ok: true, channel: r.json?.channel, ts: `${Date.now() / 1000}`, message: { text: r.json?.text } } }));
  fake.route('POST', /^\/token$/, () => ({ status: 200, body: { access_token: 'fake-oauth-token', expires_in: 3600, token_type: 'Bearer' } }));
  fake.route('POST', /^\/v1\/projects\/[^/]+\/messages:send$/, (r) => {
    const token = r.json?.message?.token as string;
    if (token?.startsWith('stale')) {
      return { status: 404, body: { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] } } };
    }
    return { status: 200, body: { name: `projects/p/messages/${nextId('fcm')}` } };
  });
  fake.route('POST', /^\/sms/, () => ({ status: 200, body: { id: nextId('sms') } }));
  fake.route('POST', /^\/hooks\//, () => ({ status: 200, body: 'ok' }));
  return fake;
}

/** The rendered email the adapter tests send, with these trigger overrides. */
export function outboundEmail(overrides: Record<string, unknown> = {}): OutboundMessage {
  return {
    channel: 'email',
    to: { email: 'ada@example.com', subscriberId: 'ada' },
    subject: 'Order A-1',
    body: '<p>On its way</p>',
    transactionId: 'tx-1',
    idempotencyKey: 'job-1',
    overrides,
  };
}
