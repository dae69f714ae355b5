import { emailOverrides, parseMailbox, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const TOKEN = 'postmark-contract-token-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: TOKEN, from: 'shop@herald.test', senderName: 'Shop' } };
const error = (status: number, ErrorCode: number, Message: string) => ({ status, body: { ErrorCode, Message } });
const list = (v?: string) => (v ? v.split(',').map((a) => a.trim()) : undefined);

/** Postmark POST /email with X-Postmark-Server-Token: `{ MessageID, ErrorCode: 0 }`; errors `{ ErrorCode, Message }`. */
export const fake: ProviderFake = {
  id: 'postmark',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/email$/,
        prefix: '/email',
        authorized: (r) => r.headers['x-postmark-server-token'] === TOKEN,
        accept: (r, id) => ({ status: 200, body: { To: r.json.To, SubmittedAt: new Date().toISOString(), MessageID: id, ErrorCode: 0, Message: 'OK' } }),
        unauthorized: () => error(401, 10, 'Request does not contain a valid Server token.'),
        invalidRecipient: (r) => error(422, 300, `Invalid 'To' address: '${r.json.To}'.`),
        serverError: error(500, 0, 'Internal server error'),
        rateLimited: { ...error(429, 0, 'Rate limit exceeded'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const from = parseMailbox(r.json.From);
          return {
            to: list(r.json.To)!,
            cc: list(r.json.Cc),
            bcc: list(r.json.Bcc),
            from: from.address,
            senderName: from.name,
            replyTo: r.json.ReplyTo,
            subject: r.json.Subject,
            body: r.json.HtmlBody,
            text: r.json.TextBody,
            headers: wireHeaders(r.json.Headers),
            attachments: r.json.Attachments?.map((a: { Name: string; ContentType: string; Content: string }) => ({ filename: a.Name, contentType: a.ContentType, content: a.Content })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'postmark-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
