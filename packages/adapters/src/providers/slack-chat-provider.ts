import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { WebAPICallError, WebClient as SlackWebClient } from '@slack/web-api';
import { ChatWebhookProvider } from './chat-webhook-provider';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, lazy, networkFailure, redact } from './kit/provider-failure';

const sdk = lazy(() => import('@slack/web-api'));

// Slack platform errors worth another attempt; every other one (invalid_auth, channel_not_found,
// not_in_channel, account_inactive...) will not get better by retrying.
const TRANSIENT = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);

function slackFailure(error: WebAPICallError, secrets: unknown[]): ProviderError {
  switch (error.code) {
    case 'slack_webapi_platform_error': {
      const code = error.data.error;
      const hint = ['invalid_auth', 'not_authed', 'token_revoked', 'account_inactive'].includes(code) ? ' (check the channel connection token)' : '';
      return new ProviderError(`Slack answered ${code}${hint}`, TRANSIENT.has(code), redact(error.data, secrets), { code });
    }
    case 'slack_webapi_rate_limited_error':
      return new ProviderError('Slack rate limited the call', true, undefined, { code: 'ratelimited', retryAfterMs: error.retryAfter * 1000 });
    case 'slack_webapi_http_error':
      return httpFailure(error.statusCode, error.statusMessage, error.body, secrets, error.headers['retry-after']);
    default:
      return networkFailure((error as { original?: Error }).original ?? error, secrets);
  }
}

/**
 * Slack: through the Web API (@slack/web-api chat.postMessage) to a channel or user, with the bot
 * token of the subscriber's channel connection (or the integration's `apiToken`); or, for a
 * subscriber with only an incoming-webhook URL, through that webhook.
 */
export class SlackChatProvider implements DeliveryProvider {
  private readonly webhook: ChatWebhookProvider;

  constructor(
    http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs?: number } = {},
  ) {
    this.webhook = new ChatWebhookProvider(http, 'slack', options.timeoutMs);
  }

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const channel = message.to.chatChannel;
    if (!channel) return this.webhook.send(message, credentials);
    const token = message.auth?.accessToken ?? credentials.apiToken ?? credentials.token;
    if (!token) throw new ProviderError('no Slack bot token: connect the subscriber (channel connection) or set the integration apiToken', false);
    const secrets = [token];
    const { WebClient } = await sdk();
    const client: SlackWebClient = new WebClient(token, {
      ...(this.options.baseUrl ? { slackApiUrl: `${this.options.baseUrl}/api/` } : {}),
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: this.options.timeoutMs ?? 15_000,
    });
    try {
      // Blocks, when the trigger overrides give them, are passed through as Slack defines them.
      const blocks = message.overrides.blocks as never;
      const result = await client.chat.postMessage({ channel, text: message.body, ...(blocks ? { blocks } : {}) });
      return { providerMessageId: result.ts, raw: JSON.stringify({ ok: result.ok, channel: result.channel, ts: result.ts }) };
    } catch (error) {
      throw slackFailure(error as WebAPICallError, secrets);
    }
  }
}

export const providers = [
  defineProvider({
    id: 'slack',
    through: '`@slack/web-api` chat.postMessage, or an incoming webhook',
    create: (kit) => new SlackChatProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }),
  }),
];
