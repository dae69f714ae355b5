import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = 'a1b2c3d4';
const SECRET = 'nexmo-contract-secret-1';
// The SMS API answers 200 for every outcome; what happened is each message's status.
const refused = (status: string, text: string) => ({ status: 200, body: { 'message-count': '1', messages: [{ status, 'error-text': text }] } });

/** Vonage SMS API POST /sms/json: form fields api_key, api_secret, from, to (no `+`), text; `{ messages: [{ status, message-id }] }`. */
export const fake: ProviderFake = {
  id: 'nexmo',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  unsupported: { retryAfter: 'Vonage answers throttling as status 1 inside a 200, with no Retry-After: it is transient with the policy backoff' },
  start: () =>
    startHttpService(
      {
        path: /^\/sms\/json$/,
        prefix: '/sms/json',
        authorized: (r) => r.headers['content-type'] === 'application/x-www-form-urlencoded' && r.json.api_key === KEY && r.json.api_secret === SECRET,
        accept: (r, id) => ({ status: 200, body: { 'message-count': '1', messages: [{ to: r.json.to, 'message-id': id, status: '0', 'remaining-balance': '3.14', 'message-price': '0.0333', network: '12345' }] } }),
        unauthorized: () => refused('4', 'Bad Credentials'),
        invalidRecipient: () => refused('3', 'Invalid to address'),
        serverError: refused('5', 'Internal Error'),
        rateLimited: refused('1', 'Throughput Rate Exceeded - please wait [ 7 ] and retry'),
        wire: (r) => ({ to: [`+${r.json.to}`], from: r.json.from, body: r.json.text }),
      },
      smsTargets(() => ({ apiKey: KEY, secretKey: SECRET, from: '+15559998888' }), { secretKey: 'nexmo-wrong-secret-9' }),
    ),
};
