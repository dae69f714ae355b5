import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'mailtrap-contract-token-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const emails = (list?: Array<{ email: string }>) => list?.map((a) => a.email);

/** Mailtrap POST /api/send: `{ success, message_ids }`; errors `{ success: false, errors: [...] }`. */
export const fake: ProviderFake = {
  id: 'mailtrap',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/api\/send$/,
        prefix: '/api/send',
        authorized: (r) => r.headers.authorization === `Bearer ${KEY}`,
        accept: (_r, id) => ({ status: 200, body: { success: true, message_ids: [id] } }),
        unauthorized: () => ({ status: 401, body: { success: false, errors: ['Unauthorized'] } }),
        invalidRecipient: () => ({ status: 400, body: { success: false, errors: ["'to' address is invalid"] } }),
        serverError: { status: 500, body: { success: false, errors: ['Internal Server Error'] } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { success: false, errors: ['Rate limit exceeded'] } },
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
          attachments: r.json.attachments?.map((a: { filename: string; type: string; content: string }) => ({ filename: a.filename, contentType: a.type, content: a.content })),
        }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'mailtrap-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
