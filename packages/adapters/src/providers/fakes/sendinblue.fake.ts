import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'xkeysib-contract-key-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const error = (status: number, code: string, message: string) => ({ status, body: { code, message } });
const emails = (list?: Array<{ email: string }>) => list?.map((a) => a.email);

/** Brevo POST /v3/smtp/email with the `api-key` header: 201 `{ messageId }`; errors `{ code, message }`. */
export const fake: ProviderFake = {
  id: 'sendinblue',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v3\/smtp\/email$/,
        prefix: '/v3/smtp/email',
        authorized: (r) => r.headers['api-key'] === KEY,
        accept: (_r, id) => ({ status: 201, body: { messageId: id } }),
        unauthorized: () => error(401, 'unauthorized', 'Key not found'),
        invalidRecipient: () => error(400, 'invalid_parameter', 'email is not valid in to'),
        serverError: error(500, 'internal_error', 'Internal server error'),
        rateLimited: { ...error(429, 'too_many_requests', 'The expected rate limit is exceeded.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({
          to: emails(r.json.to)!,
          cc: emails(r.json.cc),
          bcc: emails(r.json.bcc),
          from: r.json.sender.email,
          senderName: r.json.sender.name,
          replyTo: r.json.replyTo?.email,
          subject: r.json.subject,
          body: r.json.htmlContent,
          text: r.json.textContent,
          headers: wireHeaders(r.json.headers),
          // Brevo takes no content type: it infers one from the file name.
          attachments: r.json.attachment?.map((a: { name: string; content: string }) => ({ filename: a.name, contentType: a.name.endsWith('.txt') ? 'text/plain' : '', content: a.content })),
        }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'xkeysib-wrong-key-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
