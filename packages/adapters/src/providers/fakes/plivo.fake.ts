import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const AUTH_ID = 'MAPLIVOCONTRACT01';
const TOKEN = 'plivo-contract-token-1';
const error = (status: number, text: string) => ({ status, body: { api_id: 'c2a0f1e4-api', error: text } });

/** Plivo POST /v1/Account/{auth_id}/Message/: Basic auth, JSON `{ src, dst, text }`; 202 `{ message_uuid: [...] }`; errors `{ api_id, error }`. */
export const fake: ProviderFake = {
  id: 'plivo',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/v1\/Account\/[^/]+\/Message\/$/,
        prefix: '/v1/Account/',
        authorized: (r) => r.headers.authorization === `Basic ${Buffer.from(`${AUTH_ID}:${TOKEN}`).toString('base64')}` && r.path === `/v1/Account/${AUTH_ID}/Message/`,
        accept: (_r, id) => ({ status: 202, body: { api_id: 'c2a0f1e4-api', message: 'message(s) queued', message_uuid: [id] } }),
        unauthorized: () => error(401, 'Authentication failed'),
        invalidRecipient: () => error(400, 'invalid dst parameter'),
        serverError: error(500, 'unexpected error'),
        rateLimited: { ...error(429, 'too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [r.json.dst], from: r.json.src, body: r.json.text }),
      },
      smsTargets(() => ({ accountSid: AUTH_ID, token: TOKEN, from: '+15559998888' }), { token: 'plivo-wrong-token-9' }),
    ),
};
