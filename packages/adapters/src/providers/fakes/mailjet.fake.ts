import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'mj-contract-public-1';
const SECRET = 'mj-contract-secret-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, secretKey: SECRET, from: 'shop@herald.test', senderName: 'Shop' } };
const emails = (list?: Array<{ Email: string }>) => list?.map((a) => a.Email);

/** Mailjet POST /v3.1/send (Basic key:secret): per-message Status and MessageID; errors per message or `{ ErrorMessage, StatusCode }`. */
export const fake: ProviderFake = {
  id: 'mailjet',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v3\.1\/send$/,
        prefix: '/v3.1/send',
        authorized: (r) => r.headers.authorization === `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`,
        accept: (r, id) => ({ status: 200, body: { Messages: [{ Status: 'success', CustomID: r.json.Messages[0].CustomID, To: [{ Email: r.json.Messages[0].To[0].Email, MessageUUID: 'uuid-1', MessageID: id, MessageHref: `https://api.mailjet.com/v3/REST/message/${id}` }] }] } }),
        unauthorized: () => ({ status: 401, body: { ErrorIdentifier: 'e-1', StatusCode: 401, ErrorMessage: 'API key authentication/authorization failure. You may be unauthorized to access the API or your API key may be expired.' } }),
        invalidRecipient: () => ({ status: 400, body: { Messages: [{ Status: 'error', Errors: [{ ErrorIdentifier: 'e-2', ErrorCode: 'mj-0013', StatusCode: 400, ErrorMessage: '"nobody@invalid" is an invalid email address.', ErrorRelatedTo: ['To[0].Email'] }] }] } }),
        serverError: { status: 500, body: { ErrorIdentifier: 'e-3', StatusCode: 500, ErrorMessage: 'Internal Server Error' } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { ErrorIdentifier: 'e-4', StatusCode: 429, ErrorMessage: 'Too many requests' } },
        wire: (r) => {
          const m = r.json.Messages[0];
          return {
            to: emails(m.To)!,
            cc: emails(m.Cc),
            bcc: emails(m.Bcc),
            from: m.From.Email,
            senderName: m.From.Name,
            replyTo: m.ReplyTo?.Email,
            subject: m.Subject,
            body: m.HTMLPart,
            text: m.TextPart,
            headers: wireHeaders(m.Headers),
            attachments: m.Attachments?.map((a: { Filename: string; ContentType: string; Base64Content: string }) => ({ filename: a.Filename, contentType: a.ContentType, content: a.Base64Content })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, secretKey: 'mj-wrong-secret-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
