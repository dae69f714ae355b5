import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { Client } from '@sendgrid/client';
import type { MailService } from '@sendgrid/mail';
import { defineProvider } from './kit/provider-definition';
import { SendGridReceiptReader } from '../receipts/sendgrid-receipt-reader';
import { clientPerKey } from './kit/client-per-key';
import { emailFields } from './kit/email-fields';
import { httpFailure, lazy, networkFailure } from './kit/provider-failure';

// Loaded on first use (importing the SDKs takes a while). Both export a ready instance; fresh ones
// come from its class, since the API key lives on the client.
const sdk = lazy(async () => ({
  Client: (await import('@sendgrid/client')).default.constructor as new () => Client,
  MailService: (await import('@sendgrid/mail')).default.constructor as new () => MailService,
}));

type SendGridError = { code?: number | string; message?: string; response?: { headers?: Record<string, string>; body?: { errors?: Array<{ message?: string }> } } };

/** SendGrid v3 mail send through @sendgrid/mail; `baseUrl` (operator setting) points it elsewhere. */
export class SendGridEmailProvider implements DeliveryProvider {
  // One client per integration key, kept between sends (the SDK keeps the key on its client).
  private mailFor?: (apiKey: string) => MailService;

  constructor(private readonly options: { baseUrl?: string; timeoutMs?: number } = {}) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const secrets = [credentials.apiKey];
    if (!this.mailFor) {
      const { Client, MailService } = await sdk();
      this.mailFor ??= clientPerKey((apiKey) => {
        const client = new Client();
        client.setApiKey(apiKey);
        if (this.options.baseUrl) client.setDefaultRequest('baseUrl', this.options.baseUrl);
        const mail = new MailService();
        mail.setClient(client);
        mail.setTimeout(this.options.timeoutMs ?? 15_000);
        return mail;
      });
    }
    const mail = this.mailFor(credentials.apiKey);
    const f = emailFields(message, credentials);
    try {
      const [response] = await mail.send({
        from: f.senderName ? { email: f.from, name: f.senderName } : f.from,
        to: f.to,
        subject: f.subject,
        html: f.html,
        ...(f.text ? { text: f.text } : {}),
        replyTo: f.replyTo,
        cc: f.cc,
        bcc: f.bcc,
        headers: f.headers,
        ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ filename: a.filename, type: a.contentType, content: a.content.toString('base64') })) } : {}),
        ...(f.template ? { templateId: f.template.id, dynamicTemplateData: f.template.data } : {}),
        customArgs: { transactionId: message.transactionId },
      } as Parameters<MailService['send']>[0]);
      const id = response.headers['x-message-id'] as string | undefined;
      return { providerMessageId: id, raw: JSON.stringify({ statusCode: response.statusCode, messageId: id }) };
    } catch (error) {
      const e = error as SendGridError;
      if (typeof e.code !== 'number') throw networkFailure(e, secrets);
      const reason = e.response?.body?.errors?.map((x) => x.message).join('; ') || e.message || 'failed';
      throw httpFailure(e.code, reason, e.response?.body, secrets, e.response?.headers?.['retry-after']);
    }
  }
}

export const providers = [
  defineProvider({ id: 'sendgrid', through: '`@sendgrid/mail`', create: (kit) => new SendGridEmailProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }), receipts: () => new SendGridReceiptReader() }),
];
