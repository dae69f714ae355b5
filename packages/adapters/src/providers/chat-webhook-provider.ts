import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

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
    private readonly timeoutMs = 15_000,
  ) {}

  async send(message: OutboundMessage, _credentials: Credentials): Promise<ProviderReceipt> {
    const url = message.to.webhookUrl;
    if (!url) throw new ProviderError(`subscriber ${message.to.subscriberId} has no ${this.format} webhook URL`, false);
    const target = this.format === 'discord' ? `${url}${url.includes('?') ? '&' : '?'}wait=true` : url;
    const answer = await callProvider(this.http, this.timeoutMs, {
      url: target,
      json: payload(this.format, message.body, message.overrides),
      // The webhook URL is itself the secret.
      secrets: [url, new URL(url).pathname],
      refusal: `${this.format} webhook refused the message`,
    });
    const id = (answer.body as { id?: unknown } | null)?.id;
    return { providerMessageId: typeof id === 'string' ? id : undefined, raw: answer.raw };
  }
}

export const providers = (['discord', 'msteams', 'mattermost'] as const).map((format) =>
  defineProvider({ id: format, through: "the service's incoming webhook", create: (kit) => new ChatWebhookProvider(kit.http, format, kit.timeoutMs) }),
);
