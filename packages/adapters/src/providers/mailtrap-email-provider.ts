import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

const API = 'https://send.api.mailtrap.io';
const address = (email: string) => ({ email });

/**
 * Mailtrap Email Sending (POST /api/send, transactional stream) through Herald's guarded client: the
 * `mailtrap` SDK takes its hosts from constants with no endpoint option. A template named in the
 * overrides is sent as `template_uuid` with its variables.
 */
export class MailtrapEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const f = emailFields(message, credentials);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/api/send`,
      headers: { authorization: `Bearer ${credentials.apiKey}` },
      json: {
        from: { email: f.from, ...(f.senderName ? { name: f.senderName } : {}) },
        to: [address(f.to)],
        ...(f.cc ? { cc: f.cc.map(address) } : {}),
        ...(f.bcc ? { bcc: f.bcc.map(address) } : {}),
        ...(f.replyTo ? { reply_to: address(f.replyTo) } : {}),
        ...(f.template
          ? { template_uuid: f.template.id, template_variables: f.template.data }
          : { subject: f.subject, html: f.html, ...(f.text ? { text: f.text } : {}) }),
        ...(f.headers ? { headers: f.headers } : {}),
        ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ filename: a.filename, type: a.contentType, content: a.content.toString('base64'), disposition: 'attachment' })) } : {}),
        custom_variables: { transactionId: message.transactionId },
      },
      secrets: [credentials.apiKey],
      reason: (body: { errors?: string[] | string; error?: string }) => [body.errors ?? body.error].flat().filter(Boolean).join('; '),
    });
    const ids = (answer.body as { message_ids?: string[] }).message_ids;
    return { providerMessageId: ids?.[0], raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mailtrap', through: 'HTTP API (POST /api/send)', create: (kit) => new MailtrapEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
