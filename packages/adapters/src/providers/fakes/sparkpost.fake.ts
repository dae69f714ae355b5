import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'sparkpost-contract-key-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
type Recipient = { address: { email: string; header_to?: string } };

/** SparkPost POST /api/v1/transmissions: `{ results: { id, total_accepted_recipients } }`; errors `{ errors: [{ message, code }] }`. */
export const fake: ProviderFake = {
  id: 'sparkpost',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/api\/v1\/transmissions$/,
        prefix: '/api/v1/transmissions',
        authorized: (r) => r.headers.authorization === KEY,
        accept: (r, id) => ({ status: 200, body: { results: { total_rejected_recipients: 0, total_accepted_recipients: r.json.recipients.length, id } } }),
        unauthorized: () => ({ status: 401, body: { errors: [{ message: 'Unauthorized.' }] } }),
        invalidRecipient: () => ({ status: 422, body: { errors: [{ message: 'invalid data format/type', description: 'Error while validating recipients: invalid email address', code: '1300' }] } }),
        serverError: { status: 503, body: { errors: [{ message: 'Service Unavailable' }] } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { errors: [{ message: 'Too many requests' }] } },
        wire: (r) => {
          const recipients = r.json.recipients as Recipient[];
          const { CC, ...headers } = r.json.content.headers ?? {};
          const cc = CC ? String(CC).split(', ') : undefined;
          const copies = recipients.filter((x) => x.address.header_to).map((x) => x.address.email);
          return {
            to: recipients.filter((x) => !x.address.header_to).map((x) => x.address.email),
            cc,
            bcc: copies.filter((a) => !cc?.includes(a)),
            from: r.json.content.from.email,
            senderName: r.json.content.from.name,
            replyTo: r.json.content.reply_to,
            subject: r.json.content.subject,
            body: r.json.content.html,
            text: r.json.content.text,
            headers: wireHeaders(headers),
            attachments: r.json.content.attachments?.map((a: { name: string; type: string; data: string }) => ({ filename: a.name, contentType: a.type, content: a.data })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'sparkpost-wrong-key-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
