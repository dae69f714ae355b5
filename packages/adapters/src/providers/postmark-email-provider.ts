import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { Models } from 'postmark';
import { emailFields, mailbox } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { PostmarkReceiptReader } from '../receipts/postmark-receipt-reader';
import { httpFailure, lazy, networkFailure } from './kit/provider-failure';
import { retryAfterFetch } from './kit/retry-after-fetch';

const sdk = lazy(() => import('postmark'));

/**
 * Postmark through its official SDK (`postmark`): sendEmail, or sendEmailWithTemplate when the
 * overrides name a template (a number is a TemplateId, anything else a TemplateAlias). The operator
 * endpoint sets the SDK's requestHost and scheme.
 */
export class PostmarkEmailProvider implements DeliveryProvider {
  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const secrets = [credentials.apiKey];
    const { ServerClient } = await sdk();
    const endpoint = this.options.baseUrl ? new URL(this.options.baseUrl) : undefined;
    const seen = retryAfterFetch();
    const client = new ServerClient(credentials.apiKey, {
      ...(endpoint ? { useHttps: endpoint.protocol === 'https:', requestHost: endpoint.host } : {}),
      timeout: Math.ceil(this.options.timeoutMs / 1000),
      fetch: seen.fetch,
    });
    const f = emailFields(message, credentials);
    const common = {
      From: mailbox(f.from, f.senderName),
      To: f.to,
      Cc: f.cc?.join(', '),
      Bcc: f.bcc?.join(', '),
      ReplyTo: f.replyTo,
      Headers: f.headers ? Object.entries(f.headers).map(([Name, Value]) => ({ Name, Value })) : undefined,
      Attachments: f.attachments.map((a) => ({ Name: a.filename, Content: a.content.toString('base64'), ContentType: a.contentType, ContentID: null })),
      Metadata: { transactionId: message.transactionId },
      MessageStream: 'outbound',
    };
    try {
      const sent = f.template
        ? await client.sendEmailWithTemplate({ ...common, ...(/^\d+$/.test(f.template.id) ? { TemplateId: Number(f.template.id) } : { TemplateAlias: f.template.id }), TemplateModel: f.template.data } as Models.TemplatedMessage)
        : await client.sendEmail({ ...common, Subject: f.subject, HtmlBody: f.html, TextBody: f.text } as Models.Message);
      return { providerMessageId: sent.MessageID, raw: JSON.stringify({ MessageID: sent.MessageID, SubmittedAt: sent.SubmittedAt, To: sent.To }) };
    } catch (error) {
      const e = error as { statusCode?: number; code?: number; message?: string };
      if (!e.statusCode) throw networkFailure(e, secrets);
      throw httpFailure(e.statusCode, `${e.message}${e.code ? ` (Postmark error ${e.code})` : ''}`, { code: e.code, message: e.message }, secrets, seen.retryAfter());
    }
  }
}

export const providers = [
  defineProvider({ id: 'postmark', through: '`postmark` (official SDK)', create: (kit) => new PostmarkEmailProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }), receipts: () => new PostmarkReceiptReader() }),
];
