import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields, mailbox } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

type Sent = { messages?: Array<{ to: string; messageId: string; status?: { groupName?: string; name?: string; description?: string } }> };

/**
 * Infobip Email (POST /email/3/send, multipart form) at the account's own `baseUrl`, through Herald's
 * guarded client: the base URL is tenant input, so the outbound guard must see every call (the
 * Infobip SDK would bypass it). A message Infobip REJECTED is a permanent failure.
 */
export class InfobipEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const origin = this.options.baseUrl ?? credentials.baseUrl;
    if (!credentials.apiKey || !origin) throw new ProviderError('the integration needs apiKey and baseUrl', false);
    const f = emailFields(message, credentials);
    const form = new FormData();
    form.append('from', mailbox(f.from, f.senderName));
    form.append('to', f.to);
    for (const cc of f.cc ?? []) form.append('cc', cc);
    for (const bcc of f.bcc ?? []) form.append('bcc', bcc);
    form.append('subject', f.subject);
    if (f.template) {
      form.append('templateId', f.template.id);
      form.append('defaultPlaceholders', JSON.stringify(f.template.data));
    } else form.append('html', f.html);
    if (f.text) form.append('text', f.text);
    if (f.replyTo) form.append('replyTo', f.replyTo);
    for (const a of f.attachments) form.append('attachment', new Blob([a.content], { type: a.contentType }), a.filename);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${origin.replace(/\/+$/, '')}/email/3/send`,
      headers: { authorization: `App ${credentials.apiKey}` },
      form,
      secrets: [credentials.apiKey],
      reason: (body: { requestError?: { serviceException?: { messageId?: string; text?: string } } }) => {
        const e = body.requestError?.serviceException;
        return e ? `${e.messageId}: ${e.text}` : undefined;
      },
    });
    const sent = (answer.body as Sent).messages?.[0];
    if (sent?.status?.groupName === 'REJECTED') {
      throw new ProviderError(`Infobip rejected ${sent.to}: ${sent.status.name} (${sent.status.description})`, false, answer.raw, { code: sent.status.name });
    }
    return { providerMessageId: sent?.messageId, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'infobip-email', through: 'HTTP API (POST /email/3/send, multipart)', create: (kit) => new InfobipEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
