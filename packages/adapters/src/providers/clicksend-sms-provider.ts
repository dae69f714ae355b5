import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { basicAuth } from './kit/provider-http';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://rest.clicksend.com';

type Sent = { data?: { messages?: Array<{ message_id?: string; to?: string; status?: string }> } };

/**
 * ClickSend SMS (POST /v3/sms/send, Basic auth username:API key), through Herald's guarded client:
 * the `clicksend` SDK is a generated client on the deprecated `request` library. ClickSend answers
 * 200 also when it refuses a message, with a status per message (INVALID_RECIPIENT,
 * INSUFFICIENT_CREDIT...): any but SUCCESS is permanent.
 */
export class ClickSendSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { user, apiKey } = requireCredentials(credentials, ['user', 'apiKey']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/v3/sms/send'),
      headers: { authorization: basicAuth(user, apiKey) },
      json: { messages: [{ source: 'herald', ...(sms.from ? { from: sms.from } : {}), to: sms.to, body: sms.text, custom_string: message.transactionId }] },
      secrets: [apiKey],
      reason: (body: { response_code?: string; response_msg?: string }) => (body.response_msg ? `${body.response_msg} (${body.response_code})` : undefined),
    });
    const sent = (answer.body as Sent).data?.messages?.[0];
    if (sent?.status !== 'SUCCESS') throw new ProviderError(`ClickSend refused the message: ${sent?.status ?? 'no status'}`, false, answer.raw, { code: sent?.status });
    return { providerMessageId: sent.message_id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'clicksend', through: 'HTTP API (POST /v3/sms/send)', create: (kit) => new ClickSendSmsProvider(kit) }),
];
