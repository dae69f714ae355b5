import { emailOverrides, parseMailbox } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'key-contract-mailgun-1';
const credentials = (url: string, apiKey = KEY) => ({ apiKey, domain: 'mg.herald.test', baseUrl: url, from: 'shop@herald.test', senderName: 'Shop' });
const list = (v: unknown) => (v === undefined ? undefined : [v].flat().map(String));

/** Mailgun POST /v3/<domain>/messages (multipart, Basic api:key): `{ id, message }`; a bad key is a bare 401 Forbidden. */
export const fake: ProviderFake = {
  id: 'mailgun',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v3\/mg\.herald\.test\/messages$/,
        prefix: '/v3/',
        authorized: (r) => r.headers.authorization === `Basic ${Buffer.from(`api:${KEY}`).toString('base64')}`,
        // Mailgun answers the Message-Id header in angle brackets; its events carry it without.
        messageId: (n) => `<20261128120000.${n}.contract@mg.herald.test>`,
        accept: (_r, id) => ({ status: 200, body: { id, message: 'Queued. Thank you.' } }),
        unauthorized: () => ({ status: 401, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' }),
        invalidRecipient: () => ({ status: 400, body: { message: "to parameter is not a valid address. please check documentation" } }),
        serverError: { status: 500, body: { message: 'Internal Server Error' } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Too many requests' } },
        wire: (r) => {
          const from = parseMailbox(r.json.from);
          const headers = Object.fromEntries(Object.entries(r.json as Record<string, string>).filter(([k]) => k.startsWith('h:X-')).map(([k, v]) => [k.slice(2).toLowerCase(), v]));
          return {
            to: list(r.json.to)!,
            cc: list(r.json.cc),
            bcc: list(r.json.bcc),
            from: from.address,
            senderName: from.name,
            replyTo: r.json['h:Reply-To'],
            subject: r.json.subject,
            body: r.json.html,
            text: r.json.text,
            headers,
            attachments: r.json.attachment ? [r.json.attachment].flat() : undefined,
          };
        },
      },
      {
        target: (url) => ({ to: { email: 'ada@example.com' }, credentials: credentials(url) }),
        badCredentials: (url) => ({ to: { email: 'ada@example.com' }, credentials: credentials(url, 'key-wrong-mailgun-9') }),
        invalidRecipient: (url) => ({ to: { email: INVALID.email }, credentials: credentials(url) }),
      },
    ),
};
