import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

const API = 'https://api.useplunk.com';

/**
 * Plunk transactional send (POST /v1/send) through Herald's guarded client: @plunk/node reports
 * every non-401/404 failure as a bare Error (no status, no Retry-After) and has no timeout, so it
 * could not tell a retry from a refusal. Plunk has no cc, bcc or plain-text part.
 */
export class PlunkEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const f = emailFields(message, credentials);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/v1/send`,
      headers: { authorization: `Bearer ${credentials.apiKey}` },
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
      secrets: [credentials.apiKey],
      reason: (body: { message?: string; error?: string }) => body.message ?? body.error,
    });
    const emails = (answer.body as { emails?: Array<{ email?: string }> }).emails;
    return { providerMessageId: emails?.[0]?.email, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'plunk', through: 'HTTP API (POST /v1/send)', create: (kit) => new PlunkEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
