import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

const API = 'https://mandrillapp.com';
// Mandrill answers every error with HTTP 500 and a name: only these are worth another attempt.
const TRANSIENT = new Set(['GeneralError', 'ServiceUnavailable']);

type Result = { email: string; status: 'sent' | 'queued' | 'scheduled' | 'rejected' | 'invalid'; reject_reason?: string | null; _id: string };

/**
 * Mandrill (Mailchimp Transactional) messages/send, or messages/send-template for a template named in
 * the overrides, through Herald's guarded client: @mailchimp/mailchimp_transactional has no endpoint
 * option. The key travels in the body, so the body is never kept unredacted.
 */
export class MandrillEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const f = emailFields(message, credentials);
    const to = [{ email: f.to, type: 'to' }, ...(f.cc ?? []).map((email) => ({ email, type: 'cc' })), ...(f.bcc ?? []).map((email) => ({ email, type: 'bcc' }))];
    const headers = { ...(f.headers ?? {}), ...(f.replyTo ? { 'Reply-To': f.replyTo } : {}) };
    const body = {
      key: credentials.apiKey,
      ...(f.template ? { template_name: f.template.id, template_content: [] } : {}),
      message: {
        html: f.html,
        ...(f.text ? { text: f.text } : {}),
        subject: f.subject,
        from_email: f.from,
        ...(f.senderName ? { from_name: f.senderName } : {}),
        to,
        // Recipients see the To and Cc lines, as in any email; bcc stays hidden.
        preserve_recipients: true,
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ type: a.contentType, name: a.filename, content: a.content.toString('base64') })) } : {}),
        ...(f.template ? { global_merge_vars: Object.entries(f.template.data).map(([name, content]) => ({ name, content })) } : {}),
        metadata: { transactionId: message.transactionId },
      },
    };
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/api/1.0/messages/${f.template ? 'send-template' : 'send'}`,
      json: body,
      secrets: [credentials.apiKey],
      reason: (e: { name?: string; message?: string }) => [e.name, e.message].filter(Boolean).join(': '),
      retryable: (status, e: { name?: string }) => (status === 500 && e?.name ? TRANSIENT.has(e.name) : undefined),
    });
    const results = answer.body as Result[];
    const main = results.find((r) => r.email === f.to) ?? results[0];
    if (!main || main.status === 'rejected' || main.status === 'invalid') {
      throw new ProviderError(`Mandrill ${main?.status ?? 'refused'} ${f.to}${main?.reject_reason ? ` (${main.reject_reason})` : ''}`, false, answer.raw, { code: main?.reject_reason ?? main?.status });
    }
    return { providerMessageId: main._id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mandrill', through: 'HTTP API (messages/send, send-template)', create: (kit) => new MandrillEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
