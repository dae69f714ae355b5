import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { OutboundRefusedError, ProviderError } from '@herald/domain';
import { httpFailure, networkFailure, redact } from './provider-failure';

export type ChatWebhookFormat = 'slack' | 'discord' | 'msteams' | 'mattermost';

/** The body each chat service's incoming webhook expects for a plain-text message. */
function payload(format: ChatWebhookFormat, text: string, overrides: Record<string, unknown>): unknown {
  switch (format) {
    case 'slack':
    case 'mattermost':
      return { text, ...(overrides.blocks ? { blocks: overrides.blocks } : {}), ...(overrides.username ? { username: overrides.username } : {}) };
    case 'discord':
      // Discord refuses content over 2,000 characters.
      return { content: text.slice(0, 2000), ...(overrides.username ? { username: overrides.username } : {}) };
    case 'msteams':
      // Teams workflow webhooks take an Adaptive Card attachment.
      return {
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text, wrap: true }] } }],
      };
  }
}

/**
 * Incoming webhooks of Slack, Discord, Microsoft Teams and Mattermost: the subscriber's `webhookUrl`
 * (channel credentials or a webhook channel endpoint), called through the guarded HTTP client.
 */
export class ChatWebhookProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly format: ChatWebhookFormat,
  ) {}

  async send(message: OutboundMessage, _credentials: Credentials): Promise<ProviderReceipt> {
    const url = message.to.webhookUrl;
    if (!url) throw new ProviderError(`subscriber ${message.to.subscriberId} has no ${this.format} webhook URL`, false);
    // The webhook URL is itself the secret.
    const secrets = [url, new URL(url).pathname];
    const target = this.format === 'discord' ? `${url}${url.includes('?') ? '&' : '?'}wait=true` : url;
    let response;
    try {
      response = await this.http.request({ method: 'POST', url: target, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload(this.format, message.body, message.overrides)), timeoutMs: 15_000 });
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new ProviderError(redact(error.message, secrets) ?? 'refused', false);
      throw networkFailure(error, secrets);
    }
    if (response.status >= 300) throw httpFailure(response.status, `${this.format} webhook refused the message`, response.body, secrets, response.headers['retry-after']);
    let id: string | undefined;
    try {
      id = (JSON.parse(response.body) as { id?: string }).id;
    } catch {
      id = undefined;
    }
    return { providerMessageId: id, raw: redact(response.body, secrets) };
  }
}
