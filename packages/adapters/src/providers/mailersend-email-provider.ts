import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

const API = 'https://api.mailersend.com';
const address = (email: string) => ({ email });

/**
 * MailerSend through its documented HTTP API (POST /v1/email), through Herald's guarded client:
 * its SDK hard-codes the API origin, so it could not be pointed at a sandbox or a test fake. The
 * message id comes back in the X-Message-Id header of the 202.
 */
export class MailerSendEmailProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = requireCredentials(credentials, ['apiKey']);
    const f = emailFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/v1/email'),
      headers: { authorization: `Bearer ${apiKey}`, 'x-requested-with': 'XMLHttpRequest' },
      json: {
        from: { email: f.from, ...(f.senderName ? { name: f.senderName } : {}) },
        to: [address(f.to)],
        ...(f.cc ? { cc: f.cc.map(address) } : {}),
        ...(f.bcc ? { bcc: f.bcc.map(address) } : {}),
        ...(f.replyTo ? { reply_to: address(f.replyTo) } : {}),
        subject: f.subject,
        ...(f.template ? { template_id: f.template.id, personalization: [{ email: f.to, data: f.template.data }] } : { html: f.html, ...(f.text ? { text: f.text } : {}) }),
        ...(f.headers ? { headers: Object.entries(f.headers).map(([name, value]) => ({ name, value })) } : {}),
        ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ filename: a.filename, content: a.content.toString('base64'), disposition: 'attachment' })) } : {}),
      },
      secrets: [apiKey],
      reason: (body: { message?: string }) => body.message,
    });
    return { providerMessageId: answer.headers['x-message-id'] || undefined, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mailersend', through: 'HTTP API (POST /v1/email)', create: (kit) => new MailerSendEmailProvider(kit) }),
];
