import { emailOverrides, parseMailbox } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'infobip-contract-key-1';
const credentials = (url: string, apiKey = KEY) => ({ apiKey, baseUrl: url, from: 'shop@herald.test', senderName: 'Shop' });
const serviceError = (status: number, messageId: string, text: string) => ({ status, body: { requestError: { serviceException: { messageId, text } } } });
const list = (v: unknown) => (v === undefined ? undefined : [v].flat().map(String));

/** Infobip POST /email/3/send (multipart) at the account's base URL: `{ bulkId, messages: [{ messageId, status }] }`. */
export const fake: ProviderFake = {
  id: 'infobip-email',
  channel: 'email',
  overrides: emailOverrides({ headers: 'not mapped: Infobip’s send form has no field for custom headers' }),
  start: () =>
    startHttpService(
      {
        path: /^\/email\/3\/send$/,
        prefix: '/email/3/send',
        authorized: (r) => r.headers.authorization === `App ${KEY}`,
        accept: (r, id) => ({ status: 200, body: { bulkId: 'bulk-1', messages: [{ to: r.json.to, messageId: id, status: { groupId: 1, groupName: 'PENDING', id: 26, name: 'PENDING_ACCEPTED', description: 'Message accepted, pending for delivery.' } }] } }),
        unauthorized: () => serviceError(401, 'UNAUTHORIZED', 'Invalid login details'),
        invalidRecipient: (r) => ({ status: 200, body: { bulkId: 'bulk-2', messages: [{ to: r.json.to, messageId: 'x', status: { groupId: 5, groupName: 'REJECTED', id: 51, name: 'REJECTED_DESTINATION_NOT_REGISTERED', description: 'Destination not registered' } }] } }),
        serverError: serviceError(500, 'GENERAL_ERROR', 'Something went wrong. Please contact support.'),
        rateLimited: { ...serviceError(429, 'TOO_MANY_REQUESTS', 'Too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const from = parseMailbox(r.json.from);
          return {
            to: list(r.json.to)!,
            cc: list(r.json.cc),
            bcc: list(r.json.bcc),
            from: from.address,
            senderName: from.name,
            replyTo: r.json.replyTo,
            subject: r.json.subject,
            body: r.json.html,
            text: r.json.text,
            attachments: r.json.attachment ? [r.json.attachment].flat() : undefined,
          };
        },
      },
      {
        target: (url) => ({ to: { email: 'ada@example.com' }, credentials: credentials(url) }),
        badCredentials: (url) => ({ to: { email: 'ada@example.com' }, credentials: credentials(url, 'infobip-wrong-key-9') }),
        invalidRecipient: (url) => ({ to: { email: INVALID.email }, credentials: credentials(url) }),
      },
    ),
};
