import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { OutboundRefusedError, ProviderError, signRequestBody } from '@herald/domain';

/**
 * email-webhook, chat-webhook, push-webhook and generic-sms: POSTs the message as JSON to the
 * integration's `webhookUrl` (or the subscriber's chat webhook), signed with the integration's
 * `secretKey` when it has one. 5xx and network errors are retryable; 4xx are not.
 */
export class WebhookProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly serviceName: string,
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const url = credentials.webhookUrl ?? credentials.baseUrl ?? message.to.webhookUrl;
    if (!url) throw new ProviderError('the integration has no webhookUrl', false);
    const body = JSON.stringify({ channel: message.channel, to: message.to, subject: message.subject, body: message.body, data: message.data, transactionId: message.transactionId });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (credentials.secretKey) headers[`${this.serviceName}-signature`] = signRequestBody(credentials.secretKey, body, Date.now());
    let response;
    try {
      response = await this.http.request({ method: 'POST', url, headers, body, timeoutMs: 10_000 });
    } catch (error) {
      throw new ProviderError((error as Error).message, !(error instanceof OutboundRefusedError));
    }
    if (response.status >= 300) {
      throw new ProviderError(`webhook answered ${response.status}`, response.status >= 500 || response.status === 429, response.body.slice(0, 2000));
    }
    return { providerMessageId: response.headers['x-message-id'], raw: response.body.slice(0, 2000) };
  }
}
