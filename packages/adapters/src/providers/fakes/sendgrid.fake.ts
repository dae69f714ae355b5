import type { ProviderFake } from '../testing/provider-fake';
import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'SG.contract-key-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const emails = (list?: Array<{ email: string }>) => list?.map((a) => a.email);

/** SendGrid v3 Mail Send: 202 with X-Message-Id; errors as `{ errors: [{ message, field }] }`. */
export const fake: ProviderFake = {
  id: 'sendgrid',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v3\/mail\/send$/,
        prefix: '/v3/mail/send',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (_r, id) => ({ status: 202, headers: { 'x-message-id': id } }),
        unauthorized: () => ({ status: 401, body: { errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked', field: null, help: null }] } }),
        invalidRecipient: () => ({ status: 400, body: { errors: [{ message: 'Does not contain a valid address.', field: 'personalizations.0.to.0.email', help: null }] } }),
        serverError: { status: 500, body: { errors: [{ message: 'Internal server error', field: null }] } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { errors: [{ message: 'too many requests', field: null }] } },
        wire: (r) => {
          const [p] = r.json.personalizations;
          return {
            to: emails(p.to)!,
            cc: emails(p.cc),
            bcc: emails(p.bcc),
            from: r.json.from.email,
            senderName: r.json.from.name,
            replyTo: r.json.reply_to?.email,
            subject: r.json.subject,
            text: r.json.content.find((c: { type: string }) => c.type === 'text/plain')?.value,
            body: r.json.content.find((c: { type: string }) => c.type === 'text/html')?.value,
            headers: wireHeaders(r.json.headers),
            attachments: r.json.attachments?.map((a: { filename: string; type: string; content: string }) => ({ filename: a.filename, contentType: a.type, content: a.content })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'SG.wrong-key-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
