import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'KEYtelnyxcontract0001';
const target = { to: { phone: '+15550001111' }, credentials: { apiKey: KEY, from: '+15559998888' } };
const errors = (status: number, code: string, title: string, detail: string) => ({ status, body: { errors: [{ code, title, detail }] } });

/** Telnyx Messaging POST /v2/messages: bearer API key, `{ data: { id, ... } }`; errors `{ errors: [{ code, title, detail }] }`. */
export const fake: ProviderFake = {
  id: 'telnyx',
  channel: 'sms',
  overrides: { given: { from: '+15557776666' }, wire: { from: '+15557776666', body: 'Order A-1 is on its way' } },
  start: () =>
    startHttpService(
      {
        path: /^\/v2\/messages$/,
        prefix: '/v2/messages',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (r, id) => ({ status: 200, body: { data: { id, record_type: 'message', direction: 'outbound', text: r.json.text, from: { phone_number: r.json.from }, to: [{ phone_number: r.json.to, status: 'queued' }] } } }),
        unauthorized: () => errors(401, '10009', 'Authentication failed', 'The API key looks malformed. Check that you copied it correctly.'),
        invalidRecipient: () => errors(400, '40310', "Invalid 'to' address", 'The destination number is not a valid phone number.'),
        serverError: errors(500, '10007', 'Unexpected error', 'An unexpected error occurred.'),
        rateLimited: { ...errors(429, '10011', 'Too many requests', 'Too many requests.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [r.json.to], from: r.json.from, body: r.json.text }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'KEYtelnyxwrong0009' } }),
        invalidRecipient: () => ({ ...target, to: { phone: INVALID.phone } }),
      },
    ),
};
