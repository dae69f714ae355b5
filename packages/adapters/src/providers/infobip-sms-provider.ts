import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

type Sent = { messages?: Array<{ to: string; messageId: string; status?: { groupName?: string; name?: string; description?: string } }> };

/**
 * Infobip SMS (POST /sms/2/text/advanced, `Authorization: App`) at the account's own `baseUrl`,
 * through Herald's guarded client: the base URL is tenant input, so the outbound guard must see
 * every call (the Infobip SDK would bypass it). A destination Infobip REJECTED is a permanent failure.
 */
export class InfobipSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, baseUrl } = requireCredentials(credentials, ['apiKey', 'baseUrl']);
    const sms = smsFields(message, credentials);
    // Infobip shows the base URL without a scheme (xxxxx.api.infobip.com).
    const origin = /^https?:\/\//.test(baseUrl) ? baseUrl : `https://${baseUrl}`;
    const answer = await this.call({
      url: this.url(origin, '/sms/2/text/advanced'),
      headers: { authorization: `App ${apiKey}` },
      json: { messages: [{ ...(sms.from ? { from: sms.from } : {}), destinations: [{ to: sms.to.replace(/^\+/, '') }], text: sms.text, callbackData: message.transactionId }] },
      secrets: [apiKey],
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
  defineProvider({ id: 'infobip-sms', through: 'HTTP API (POST /sms/2/text/advanced)', create: (kit) => new InfobipSmsProvider(kit) }),
];
