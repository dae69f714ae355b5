import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'sk_contract_key_1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const error = (code: number, name: string, message: string) => ({ status: code, body: { code, error: name, message, time: Date.now() } });
const NO_COPIES = 'Plunk sends to `to` only: it has no cc or bcc';

/** Plunk POST /v1/send: `{ success, emails: [{ contact, email }], timestamp }`; errors `{ code, error, message }`. */
export const fake: ProviderFake = {
  id: 'plunk',
  channel: 'email',
  overrides: emailOverrides({ cc: NO_COPIES, bcc: NO_COPIES, text: 'Plunk takes one body, no plain-text part' }),
  start: () =>
    startHttpService(
      {
        path: /^\/v1\/send$/,
        prefix: '/v1/send',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (r, id) => ({ status: 200, body: { success: true, emails: [{ contact: { id: 'cnt_1', email: r.json.to }, email: id }], timestamp: new Date().toISOString() } }),
        unauthorized: () => error(401, 'Unauthorized', 'Incorrect Bearer token specified'),
        invalidRecipient: () => error(400, 'Bad Request', 'to: Invalid email'),
        serverError: error(500, 'Internal Server Error', 'Something went wrong'),
        rateLimited: { ...error(429, 'Too Many Requests', 'Rate limit exceeded'), headers: { 'retry-after': '7' } },
        wire: (r) => ({
          to: [r.json.to].flat(),
          from: r.json.from,
          senderName: r.json.name,
          replyTo: r.json.reply,
          subject: r.json.subject,
          body: r.json.body,
          headers: wireHeaders(r.json.headers),
          attachments: r.json.attachments?.map((a: { filename: string; contentType: string; content: string }) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'sk_wrong_key_9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
