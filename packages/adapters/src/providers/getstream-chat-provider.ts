import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { StreamChat } from 'stream-chat';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, lazy, networkFailure, redact } from './kit/provider-failure';

const sdk = lazy(() => import('stream-chat'));
const API = 'https://chat.stream-io-api.com';
// Stream needs a sender for server-side messages; this one is used when the integration names none.
const DEFAULT_USER = 'herald';

type StreamFailure = { status?: number; code?: number | null; message?: string; response?: { data?: unknown; headers?: Record<string, string> } };

/** Seconds until Stream's X-RateLimit-Reset (a Unix time): its 429s carry no Retry-After. */
function untilReset(headers: Record<string, string> | undefined): string | undefined {
  const reset = Number(headers?.['x-ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? String(Math.max(0, Math.round(reset - Date.now() / 1000))) : undefined;
}

/**
 * Stream Chat through its official SDK (`stream-chat`, server-side: the API secret signs the JWT),
 * pointed at the operator's endpoint through its `baseURL` option. `apiKey` and `secretKey` are the
 * app's key and secret, `user` the id of the user messages are sent as (it must exist; `herald` when
 * unset). The subscriber's chat channel setting (`channel`) is `type:id`, or an id of a `messaging`
 * channel. Clients are kept per key, since each keeps an HTTPS agent.
 */
export class GetstreamChatProvider implements DeliveryProvider {
  private readonly clients = new Map<string, StreamChat>();

  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  private async client(apiKey: string, secret: string): Promise<StreamChat> {
    const key = `${apiKey}\n${secret}`;
    const existing = this.clients.get(key);
    if (existing) return existing;
    const { StreamChat } = await sdk();
    const client = new StreamChat(apiKey, secret, { baseURL: this.options.baseUrl ?? API, timeout: this.options.timeoutMs });
    this.clients.set(key, client);
    return client;
  }

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, secretKey } = credentials;
    if (!apiKey || !secretKey) throw new ProviderError('the integration has no apiKey or secretKey (the app secret)', false);
    const target = message.to.chatChannel;
    if (!target) throw new ProviderError('the subscriber has no Stream channel (a chat channel setting `channel`, type:id)', false);
    const [type, id] = target.includes(':') ? [target.slice(0, target.indexOf(':')), target.slice(target.indexOf(':') + 1)] : ['messaging', target];
    const secrets = [secretKey];
    const client = await this.client(apiKey, secretKey);
    try {
      const answer = await client.channel(type, id).sendMessage({ text: message.body, user_id: String(credentials.user ?? DEFAULT_USER) });
      return { providerMessageId: answer.message?.id, raw: redact(JSON.stringify({ message: { id: answer.message?.id, cid: answer.message?.cid } }), secrets) };
    } catch (error) {
      const e = error as StreamFailure;
      if (!e.response || !e.status) throw networkFailure(error, secrets);
      const body = e.response.data as { message?: string } | undefined;
      throw httpFailure(e.status, `Stream ${e.code ?? ''}: ${redact(body?.message ?? e.message, secrets)}`, body, secrets, untilReset(e.response.headers));
    }
  }

  async close(): Promise<void> {
    for (const client of this.clients.values()) (client.options.httpsAgent as { destroy?(): void } | undefined)?.destroy?.();
    this.clients.clear();
  }
}

export const providers = [
  defineProvider({ id: 'getstream', through: '`stream-chat` (channel.sendMessage)', create: (kit) => new GetstreamChatProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
