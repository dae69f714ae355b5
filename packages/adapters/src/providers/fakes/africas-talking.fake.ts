import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const USER = 'herald-contract';
const KEY = 'atsk_contract_key_1';
const recipients = (list: object[], message: string) => ({ status: 201, body: { SMSMessageData: { Message: message, Recipients: list } } });

/**
 * Africa's Talking POST /version1/messaging: form fields username, to, message, from; the key in the
 * `apiKey` header; 201 `{ SMSMessageData: { Recipients: [{ statusCode, status, number, messageId }] } }`,
 * a refused number as its recipient's status; a bad key a 401 in plain text.
 */
export const fake: ProviderFake = {
  id: 'africas-talking',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/version1\/messaging$/,
        prefix: '/version1/messaging',
        authorized: (r) => r.headers.apikey === KEY && r.json.username === USER && r.headers['content-type'] === 'application/x-www-form-urlencoded',
        accept: (r, id) => recipients([{ statusCode: 101, number: r.json.to, status: 'Success', cost: 'KES 0.8000', messageId: id }], 'Sent to 1/1 Total Cost: KES 0.8000'),
        unauthorized: () => ({ status: 401, headers: { 'content-type': 'text/plain' }, body: 'The supplied authentication is invalid' }),
        invalidRecipient: (r) => recipients([{ statusCode: 403, number: r.json.to, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' }], 'Sent to 0/1 Total Cost: 0'),
        serverError: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' },
        rateLimited: { status: 429, headers: { 'retry-after': '7', 'content-type': 'text/plain' }, body: 'Too Many Requests' },
        wire: (r) => ({ to: String(r.json.to).split(','), from: r.json.from, body: r.json.message }),
      },
      smsTargets(() => ({ user: USER, apiKey: KEY, from: '+15559998888' }), { apiKey: 'atsk_wrong_key_9' }),
    ),
};
