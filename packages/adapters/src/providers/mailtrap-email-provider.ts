import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

const API = 'https://send.api.mailtrap.io';
const address = (email: string) => ({ email });

/**
 * Mailtrap Email Sending (POST /api/send, transactional stream) through Herald's guarded client: the
 * `mailtrap` SDK takes its hosts from constants with no endpoint option. A template named in the
 * overrides is sent as `template_uuid` with its variables.
 */
export class MailtrapEmailProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = requireCredentials(credentials, ['apiKey']);
    const f = emailFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/api/send'),
      headers: { authorization: `Bearer ${apiKey}` },
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
      secrets: [apiKey],
      reason: (body: { errors?: string[] | string; error?: string }) => [body.errors ?? body.error].flat().filter(Boolean).join('; '),
    });
    const ids = (answer.body as { message_ids?: string[] }).message_ids;
    return { providerMessageId: ids?.[0], raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mailtrap', through: 'HTTP API (POST /api/send)', create: (kit) => new MailtrapEmailProvider(kit) }),
];
