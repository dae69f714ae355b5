import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { infobipOrigin, infobipReason, infobipReceipt } from './infobip-answer';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

/**
 * Infobip SMS (POST /sms/2/text/advanced, `Authorization: App`) at the account's own `baseUrl`,
 * through Herald's guarded client: the base URL is tenant input, so the outbound guard must see
 * every call (the Infobip SDK would bypass it). A destination Infobip REJECTED is a permanent failure.
 */
export class InfobipSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, baseUrl } = requireCredentials(credentials, ['apiKey', 'baseUrl']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(infobipOrigin(baseUrl), '/sms/2/text/advanced'),
      headers: { authorization: `App ${apiKey}` },
      json: { messages: [{ ...(sms.from ? { from: sms.from } : {}), destinations: [{ to: sms.to.replace(/^\+/, '') }], text: sms.text, callbackData: message.transactionId }] },
      secrets: [apiKey],
      reason: infobipReason,
    });
    return infobipReceipt(answer);
  }
}

export const providers = [
  defineProvider({ id: 'infobip-sms', through: 'HTTP API (POST /sms/2/text/advanced)', create: (kit) => new InfobipSmsProvider(kit) }),
];
