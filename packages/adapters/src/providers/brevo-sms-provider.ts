import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://api.brevo.com';

/**
 * Brevo transactional SMS (POST /v3/transactionalSMS/send, which replaced the deprecated
 * /transactionalSMS/sms; `api-key` header), through Herald's guarded client as `sendinblue` is.
 * `from` is the sender (11 letters or 15 digits); the recipient goes with its country code and no
 * `+`; a `tag` in the trigger's overrides reaches Brevo.
 */
export class BrevoSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = requireCredentials(credentials, ['apiKey']);
    const sms = smsFields(message, credentials);
    const tag = message.overrides.tag;
    const answer = await this.call({
      url: this.url(API, '/v3/transactionalSMS/send'),
      headers: { 'api-key': apiKey },
      json: { type: 'transactional', sender: sms.from, recipient: sms.to.replace(/^\+/, ''), content: sms.text, ...(tag ? { tag: String(tag) } : {}), unicodeEnabled: /[^\x00-\x7f]/.test(sms.text) },
      secrets: [apiKey],
      reason: (body: { code?: string; message?: string }) => (body.message ? `${body.message} (${body.code})` : undefined),
    });
    const id = (answer.body as { messageId?: number | string }).messageId;
    return { providerMessageId: id === undefined ? undefined : String(id), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'brevo-sms', through: 'HTTP API (POST /v3/transactionalSMS/send)', create: (kit) => new BrevoSmsProvider(kit) }),
];
