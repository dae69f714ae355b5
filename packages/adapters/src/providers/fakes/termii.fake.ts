import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = 'TLtermiiContractKey01';
const error = (status: number, message: string) => ({ status, body: { message } });

/** Termii POST /api/sms/send: JSON `{ api_key, to, from, sms, type, channel }`; 200 `{ code: 'ok', message_id, message, balance, user }`; errors `{ message }`. */
export const fake: ProviderFake = {
  id: 'termii',
  channel: 'sms',
  overrides: { given: { ...SMS_OVERRIDES.given, channel: 'dnd' }, wire: { ...SMS_OVERRIDES.wire, extra: { channel: 'dnd' } } },
  start: () =>
    startHttpService(
      {
        path: /^\/api\/sms\/send$/,
        prefix: '/api/sms/send',
        authorized: (r) => r.json?.api_key === KEY,
        accept: (_r, id) => ({ status: 200, body: { code: 'ok', message_id: id, message_id_str: id, message: 'Successfully Sent', balance: 9, user: 'Herald Contract' } }),
        unauthorized: () => error(401, 'Invalid API key or api key not found'),
        invalidRecipient: () => error(400, 'Invalid phone number: to must be in international format'),
        serverError: error(500, 'Server Error'),
        rateLimited: { ...error(429, 'Too Many Attempts.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [`+${r.json.to}`], from: r.json.from, body: r.json.sms, extra: { channel: r.json.channel } }),
      },
      smsTargets(() => ({ apiKey: KEY, from: '+15559998888' }), { apiKey: 'TLtermiiWrongKey09' }),
    ),
};
