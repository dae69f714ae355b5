import { emailOverrides, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'md-contract-key-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: KEY, from: 'shop@herald.test', senderName: 'Shop' } };
const error = (code: number, name: string, message: string) => ({ status: 500, body: { status: 'error', code, name, message } });
type To = { email: string; type: string };

/** Mandrill messages/send: the key in the body; results per recipient; every error a 500 with a name. */
export const fake: ProviderFake = {
  id: 'mandrill',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/api\/1\.0\/messages\/send$/,
        prefix: '/api/1.0/messages/send',
        authorized: (r) => r.json.key === KEY,
        accept: (r, id) => ({ status: 200, body: (r.json.message.to as To[]).map((t, i) => ({ email: t.email, status: 'sent', reject_reason: null, _id: i === 0 ? id : `${id}-${i}` })) }),
        unauthorized: () => error(-1, 'Invalid_Key', 'Invalid API key'),
        // An address Mandrill cannot send to is a 200 with that recipient's status.
        invalidRecipient: (r) => ({ status: 200, body: (r.json.message.to as To[]).map((t) => ({ email: t.email, status: 'invalid', reject_reason: null, _id: 'x' })) }),
        serverError: error(-1, 'GeneralError', 'An unexpected error occurred processing the request.'),
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { status: 'error', code: -1, name: 'Too_Many_Requests', message: 'Too many requests' } },
        wire: (r) => {
          const m = r.json.message;
          const of = (type: string) => (m.to as To[]).filter((t) => t.type === type).map((t) => t.email);
          const { 'Reply-To': replyTo, ...headers } = m.headers ?? {};
          return {
            to: of('to'),
            cc: of('cc'),
            bcc: of('bcc'),
            from: m.from_email,
            senderName: m.from_name,
            replyTo,
            subject: m.subject,
            body: m.html,
            text: m.text,
            headers: wireHeaders(headers),
            attachments: m.attachments?.map((a: { name: string; type: string; content: string }) => ({ filename: a.name, contentType: a.type, content: a.content })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'md-wrong-key-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
