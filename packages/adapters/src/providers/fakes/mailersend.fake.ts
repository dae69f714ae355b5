import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'mlsn.contract-key-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const emails = (list?: Array<{ email: string }>) => list?.map((a) => a.email);

/** MailerSend POST /v1/email: 202 with X-Message-Id and no body; errors `{ message, errors }`. */
export const fake: ProviderFake = {
  id: 'mailersend',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v1\/email$/,
        prefix: '/v1/email',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (_r, id) => ({ status: 202, headers: { 'x-message-id': id } }),
        unauthorized: () => ({ status: 401, body: { message: 'Unauthenticated.' } }),
        invalidRecipient: () => ({ status: 422, body: { message: 'The to.0.email must be a valid email address.', errors: { 'to.0.email': ['The to.0.email must be a valid email address.'] } } }),
        serverError: { status: 500, body: { message: 'Server Error' } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too Many Attempts.' } },
        wire: (r) => ({
          to: emails(r.json.to)!,
          cc: emails(r.json.cc),
          bcc: emails(r.json.bcc),
          from: r.json.from.email,
          senderName: r.json.from.name,
          replyTo: r.json.reply_to?.email,
          subject: r.json.subject,
          body: r.json.html,
          text: r.json.text,
          headers: wireHeaders(r.json.headers),
          // MailerSend takes no content type: it infers one from the file name.
          attachments: r.json.attachments?.map((a: { filename: string; content: string }) => ({ filename: a.filename, contentType: a.filename.endsWith('.txt') ? 'text/plain' : '', content: a.content })),
        }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'mlsn.wrong-key-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
