import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

const API = 'https://api.useplunk.com';

/**
 * Plunk transactional send (POST /v1/send) through Herald's guarded client: @plunk/node reports
 * every non-401/404 failure as a bare Error (no status, no Retry-After) and has no timeout, so it
 * could not tell a retry from a refusal. Plunk has no cc, bcc or plain-text part.
 */
export class PlunkEmailProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = requireCredentials(credentials, ['apiKey']);
    const f = emailFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/v1/send'),
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        to: f.to,
        subject: f.subject,
        body: f.html,
        from: f.from,
        ...(f.senderName ? { name: f.senderName } : {}),
        ...(f.replyTo ? { reply: f.replyTo } : {}),
        ...(f.headers ? { headers: f.headers } : {}),
        ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ filename: a.filename, content: a.content.toString('base64'), contentType: a.contentType })) } : {}),
        // A transactional message does not subscribe its recipient to marketing email.
        subscribed: false,
      },
      secrets: [apiKey],
      reason: (body: { message?: string; error?: string }) => body.message ?? body.error,
    });
    const emails = (answer.body as { emails?: Array<{ email?: string }> }).emails;
    return { providerMessageId: emails?.[0]?.email, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'plunk', through: 'HTTP API (POST /v1/send)', create: (kit) => new PlunkEmailProvider(kit) }),
];
