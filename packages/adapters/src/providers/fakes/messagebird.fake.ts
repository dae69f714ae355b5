import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = 'live_contractMessageBird01';
const errors = (status: number, code: number, description: string, parameter: string | null = null) => ({ status, body: { errors: [{ code, description, parameter }] } });

/** MessageBird POST /messages: `Authorization: AccessKey`, `{ originator, recipients, body }`; 201 with the message `id`; errors `{ errors: [{ code, description, parameter }] }`. */
export const fake: ProviderFake = {
  id: 'messagebird',
  channel: 'sms',
  overrides: SMS_OVERRIDES,
  start: () =>
    startHttpService(
      {
        path: /^\/messages$/,
        prefix: '/messages',
        authorized: (r) => r.headers.authorization === `AccessKey ${KEY}`,
        accept: (r, id) => ({
          status: 201,
          body: { id, href: `https://rest.messagebird.com/messages/${id}`, direction: 'mt', type: 'sms', originator: r.json.originator, body: r.json.body, reference: r.json.reference, recipients: { totalCount: 1, totalSentCount: 1, items: r.json.recipients.map((n: string) => ({ recipient: Number(n), status: 'sent' })) } },
        }),
        unauthorized: () => errors(401, 2, 'Request not allowed (incorrect access_key)'),
        invalidRecipient: () => errors(422, 9, 'no (correct) recipients found', 'recipients'),
        serverError: errors(500, 25, 'Internal error'),
        rateLimited: { ...errors(429, 98, 'Too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: r.json.recipients.map((n: string) => `+${n}`), from: r.json.originator, body: r.json.body }),
      },
      smsTargets(() => ({ accessKey: KEY, from: '+15559998888' }), { accessKey: 'live_wrongMessageBird09' }),
    ),
};
