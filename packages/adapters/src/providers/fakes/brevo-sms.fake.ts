import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = 'xkeysib-sms-contract-key-1';
const error = (status: number, code: string, message: string) => ({ status, body: { code, message } });

/** Brevo POST /v3/transactionalSMS/send with the `api-key` header: 201 `{ messageId }`; errors `{ code, message }`. */
export const fake: ProviderFake = {
  id: 'brevo-sms',
  channel: 'sms',
  overrides: { given: { ...SMS_OVERRIDES.given, tag: 'orders' }, wire: { ...SMS_OVERRIDES.wire, extra: { tag: 'orders' } } },
  start: () =>
    startHttpService(
      {
        path: /^\/v3\/transactionalSMS\/send$/,
        prefix: '/v3/transactionalSMS/send',
        authorized: (r) => r.headers['api-key'] === KEY,
        // Brevo's messageId is a number; the fake's ids are strings, as Herald records every id.
        accept: (_r, id) => ({ status: 201, body: { messageId: id } }),
        unauthorized: () => error(401, 'unauthorized', 'Key not found'),
        invalidRecipient: () => error(400, 'invalid_parameter', 'recipient is not valid'),
        serverError: error(500, 'internal_error', 'Internal server error'),
        rateLimited: { ...error(429, 'too_many_requests', 'The expected rate limit is exceeded.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [`+${r.json.recipient}`], from: r.json.sender, body: r.json.content, extra: { tag: r.json.tag } }),
      },
      smsTargets(() => ({ apiKey: KEY, from: '+15559998888' }), { apiKey: 'xkeysib-sms-wrong-key-9' }),
    ),
};
