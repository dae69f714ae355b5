import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError, signRequestBody } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

/**
 * email-webhook, chat-webhook and push-webhook: POSTs the message as JSON to the integration's
 * `webhookUrl` (or the subscriber's chat webhook), signed with the integration's `secretKey` when it
 * has one, through the guarded HTTP client. The receiver's `x-message-id` header is the message id.
 */
export class WebhookProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly serviceName: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const url = credentials.webhookUrl ?? credentials.baseUrl ?? message.to.webhookUrl;
    if (!url) throw new ProviderError('the integration has no webhookUrl', false);
    const body = JSON.stringify({ channel: message.channel, to: message.to, subject: message.subject, body: message.body, data: message.data, transactionId: message.transactionId });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (credentials.secretKey) headers[`${this.serviceName}-signature`] = signRequestBody(credentials.secretKey, body, Date.now());
    const answer = await callProvider(this.http, this.timeoutMs, {
      url,
      headers,
      body,
      secrets: [credentials.secretKey, url],
      refusal: 'webhook refused the message',
    });
    return { providerMessageId: answer.headers['x-message-id'] || undefined, raw: answer.raw };
  }
}

const signed = 'signed JSON POST (HMAC in `<service>-signature`)';
export const providers = ['email-webhook', 'chat-webhook', 'push-webhook'].map((id) =>
  defineProvider({ id, through: signed, create: (kit) => new WebhookProvider(kit.http, kit.serviceName, kit.timeoutMs) }),
);
