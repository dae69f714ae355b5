import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { Brevo } from '@getbrevo/brevo';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, lazy, networkFailure } from './kit/provider-failure';

const sdk = lazy(() => import('@getbrevo/brevo'));

type BrevoFailure = { statusCode?: number; body?: { code?: string; message?: string }; rawResponse?: { headers?: Headers }; message?: string; name?: string };

/**
 * Brevo (formerly Sendinblue) transactional email through its official SDK (`@getbrevo/brevo`,
 * sendTransacEmail), with its own retries off (Herald's retry policy decides) and the SDK's base URL
 * set from the operator endpoint. A numeric template id in the overrides sends that template with its params.
 */
export class SendinblueEmailProvider implements DeliveryProvider {
  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const secrets = [credentials.apiKey];
    const { BrevoClient } = await sdk();
    const client = new BrevoClient({
      apiKey: credentials.apiKey,
      ...(this.options.baseUrl ? { baseUrl: `${this.options.baseUrl}/v3` } : {}),
      timeoutInSeconds: this.options.timeoutMs / 1000,
      maxRetries: 0,
    });
    const f = emailFields(message, credentials);
    const template = f.template && /^\d+$/.test(f.template.id) ? { templateId: Number(f.template.id), params: f.template.data } : undefined;
    const request: Brevo.SendTransacEmailRequest = {
      sender: { email: f.from, ...(f.senderName ? { name: f.senderName } : {}) },
      to: [{ email: f.to }],
      ...(f.cc ? { cc: f.cc.map((email) => ({ email })) } : {}),
      ...(f.bcc ? { bcc: f.bcc.map((email) => ({ email })) } : {}),
      ...(f.replyTo ? { replyTo: { email: f.replyTo } } : {}),
      subject: f.subject,
      ...(template ?? { htmlContent: f.html, ...(f.text ? { textContent: f.text } : {}) }),
      headers: { ...(f.headers ?? {}), 'X-Herald-Transaction-Id': message.transactionId },
      ...(f.attachments.length ? { attachment: f.attachments.map((a) => ({ name: a.filename, content: a.content.toString('base64') })) } : {}),
    };
    try {
      const sent = await client.transactionalEmails.sendTransacEmail(request);
      return { providerMessageId: sent.messageId, raw: JSON.stringify({ messageId: sent.messageId }) };
    } catch (error) {
      const e = error as BrevoFailure;
      if (!e.statusCode) throw networkFailure(e, secrets);
      const reason = e.body?.message ? `${e.body.code}: ${e.body.message}` : (e.message ?? 'refused the message');
      throw httpFailure(e.statusCode, reason, e.body, secrets, e.rawResponse?.headers?.get('retry-after'));
    }
  }
}

export const providers = [
  defineProvider({ id: 'sendinblue', through: '`@getbrevo/brevo` (official SDK, sendTransacEmail)', create: (kit) => new SendinblueEmailProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
