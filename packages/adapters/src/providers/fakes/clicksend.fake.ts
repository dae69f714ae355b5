import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const USER = 'contract-user';
const KEY = 'CLICKSEND-CONTRACT-KEY-1';
const answer = (status: number, code: string, msg: string, data: unknown = null) => ({ status, body: { http_code: status, response_code: code, response_msg: msg, data } });
const message = (to: string, status: string, id?: string, body?: string, from?: string) => ({ direction: 'out', date: Math.floor(Date.now() / 1000), to, body, from, message_id: id, custom_string: '', status });

/** ClickSend POST /v3/sms/send: Basic auth, `{ messages: [{ source, from, to, body }] }`; 200 `{ http_code, response_code, response_msg, data: { messages: [{ message_id, status }] } }`. */
export const fake: ProviderFake = {
  id: 'clicksend',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/v3\/sms\/send$/,
        prefix: '/v3/sms/send',
        authorized: (r) => r.headers.authorization === `Basic ${Buffer.from(`${USER}:${KEY}`).toString('base64')}`,
        accept: (r, id) => {
          const m = r.json.messages[0];
          return answer(200, 'SUCCESS', 'Messages queued for delivery.', { total_price: 0.077, total_count: 1, queued_count: 1, messages: [message(m.to, 'SUCCESS', id, m.body, m.from)] });
        },
        unauthorized: () => answer(401, 'UNAUTHORIZED', 'Invalid username or api key.'),
        // A refused recipient is one message's status in an otherwise successful answer.
        invalidRecipient: () => answer(200, 'SUCCESS', 'Messages queued for delivery.', { total_price: 0, total_count: 1, queued_count: 0, messages: [message(INVALID.phone, 'INVALID_RECIPIENT')] }),
        serverError: answer(500, 'INTERNAL_SERVER_ERROR', 'Internal server error.'),
        rateLimited: { ...answer(429, 'TOO_MANY_REQUESTS', 'Too many requests.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: r.json.messages.map((m: { to: string }) => m.to), from: r.json.messages[0].from, body: r.json.messages[0].body }),
      },
      smsTargets(() => ({ user: USER, apiKey: KEY, from: '+15559998888' }), { apiKey: 'CLICKSEND-WRONG-KEY-9' }),
    ),
};
