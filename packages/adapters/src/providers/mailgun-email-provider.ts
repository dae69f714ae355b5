import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { emailForm } from './kit/email-form';
import { defineProvider } from './kit/provider-definition';
import { MailgunReceiptReader } from '../receipts/mailgun-receipt-reader';
import { basicAuth, callProvider } from './kit/provider-http';

const API = 'https://api.mailgun.net';

/**
 * Mailgun messages API (POST /v3/<domain>/messages, multipart form) through Herald's guarded client:
 * the integration's `baseUrl` (https://api.eu.mailgun.net for EU domains) is tenant input the
 * outbound guard must see, and mailgun.js drops the answer's headers (Retry-After) from its errors.
 */
export class MailgunEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, domain } = credentials;
    if (!apiKey || !domain) throw new ProviderError('the integration needs apiKey and domain', false);
    const origin = (this.options.baseUrl ?? credentials.baseUrl ?? API).replace(/\/+$/, '');
    const f = emailFields(message, credentials);
    const form = emailForm(f, { templateId: 'template', templateData: 't:variables', replyTo: 'h:Reply-To' });
    for (const [name, value] of Object.entries(f.headers ?? {})) form.append(`h:${name}`, value);
    form.append('v:transactionId', message.transactionId);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${origin}/v3/${encodeURIComponent(domain)}/messages`,
      headers: { authorization: basicAuth(String(credentials.user ?? 'api'), apiKey) },
      form,
      secrets: [apiKey],
      reason: (body: { message?: string }) => body.message,
    });
    return { providerMessageId: (answer.body as { id?: string }).id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mailgun', through: 'HTTP API (POST /v3/<domain>/messages, multipart)', create: (kit) => new MailgunEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }), receipts: () => new MailgunReceiptReader() }),
];
