import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = 'infobip-sms-contract-key-1';
const failure = (status: number, messageId: string, text: string) => ({ status, body: { requestError: { serviceException: { messageId, text } } } });
const status = (groupId: number, groupName: string, id: number, name: string, description: string) => ({ groupId, groupName, id, name, description });

/**
 * Infobip POST /sms/2/text/advanced at the account's base URL: `Authorization: App`, `{ messages: [{ from,
 * destinations: [{ to }], text }] }`; 200 `{ bulkId, messages: [{ to, status, messageId }] }`, a rejected
 * destination inside the 200; errors `{ requestError: { serviceException: { messageId, text } } }`.
 */
export const fake: ProviderFake = {
  id: 'infobip-sms',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/sms\/2\/text\/advanced$/,
        prefix: '/sms/2/text/advanced',
        authorized: (r) => r.headers.authorization === `App ${KEY}`,
        accept: (r, id) => ({ status: 200, body: { bulkId: `bulk-${id}`, messages: [{ to: r.json.messages[0].destinations[0].to, status: status(1, 'PENDING', 26, 'PENDING_ACCEPTED', 'Message sent to next instance'), messageId: id }] } }),
        unauthorized: () => failure(401, 'UNAUTHORIZED', 'Invalid login details'),
        invalidRecipient: () => ({ status: 200, body: { bulkId: 'bulk-rejected', messages: [{ to: INVALID.phone.slice(1), status: status(5, 'REJECTED', 51, 'MISSING_TO', 'Missing destination'), messageId: 'rejected-1' }] } }),
        serverError: failure(500, 'GENERAL_ERROR', 'Something went wrong. Please contact support.'),
        rateLimited: { ...failure(429, 'TOO_MANY_REQUESTS', 'Too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: r.json.messages[0].destinations.map((d: { to: string }) => `+${d.to}`), from: r.json.messages[0].from, body: r.json.messages[0].text }),
      },
      smsTargets((url) => ({ apiKey: KEY, baseUrl: url, from: '+15559998888' }), { apiKey: 'infobip-sms-wrong-key-9' }, { endpoint: false }),
    ),
};
