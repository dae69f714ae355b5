import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const SID = 'AC0123456789';
const TOKEN = 'twilio-contract-token-1';
const target = { to: { phone: '+15550001111' }, credentials: { accountSid: SID, token: TOKEN, from: '+15559998888' } };
const error = (status: number, code: number, message: string) => ({ status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } });

/** Twilio Messages.json: form-encoded, Basic auth; 201 with the SM sid; errors `{ code, message, more_info, status }`. */
export const fake: ProviderFake = {
  id: 'twilio',
  channel: 'sms',
  overrides: { given: { from: '+15557776666' }, wire: { from: '+15557776666', body: 'Order A-1 is on its way' } },
  start: () =>
    startHttpService(
      {
        path: /^\/2010-04-01\/Accounts\/[^/]+\/Messages\.json$/,
        prefix: '/2010-04-01/Accounts/',
        authorized: (r) => r.headers.authorization === `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}` && r.path.includes(`/Accounts/${SID}/`),
        accept: (r, id) => ({ status: 201, body: { sid: id, status: 'queued', to: r.json.To, from: r.json.From, body: r.json.Body } }),
        unauthorized: () => error(401, 20003, 'Authenticate'),
        invalidRecipient: () => error(400, 21211, "The 'To' number +0000000000 is not a valid phone number."),
        serverError: error(500, 20500, 'Internal Server Error'),
        rateLimited: { ...error(429, 20429, 'Too Many Requests'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [r.json.To], from: r.json.From, body: r.json.Body }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, token: 'twilio-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { phone: INVALID.phone } }),
      },
    ),
};
