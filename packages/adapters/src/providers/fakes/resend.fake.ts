import { emailOverrides, parseMailbox, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 're_contract_key_1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const list = (v: unknown) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
const error = (statusCode: number, name: string, message: string) => ({ status: statusCode, body: { statusCode, name, message } });

/** Resend POST /emails: `{ id }`; errors `{ statusCode, name, message }`; 429 with Retry-After. */
export const fake: ProviderFake = {
  id: 'resend',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/emails$/,
        prefix: '/emails',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (_r, id) => ({ status: 200, body: { id } }),
        unauthorized: () => error(403, 'invalid_api_key', 'API key is invalid'),
        invalidRecipient: () => error(422, 'validation_error', 'Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.'),
        serverError: error(500, 'internal_server_error', 'An unexpected error occurred.'),
        rateLimited: { ...error(429, 'rate_limit_exceeded', 'Too many requests. You can only make 2 requests per second.'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const from = parseMailbox(r.json.from);
          return {
            to: list(r.json.to)!,
            cc: list(r.json.cc),
            bcc: list(r.json.bcc),
            from: from.address,
            senderName: from.name,
            replyTo: list(r.json.reply_to)?.[0],
            subject: r.json.subject,
            body: r.json.html,
            text: r.json.text,
            headers: wireHeaders(r.json.headers),
            attachments: r.json.attachments?.map((a: { filename: string; content_type: string; content: string }) => ({ filename: a.filename, contentType: a.content_type, content: a.content })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 're_wrong_key_9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
