import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { basicAuth, callProvider } from './kit/provider-http';

type ZulipAnswer = { result?: string; msg?: string; code?: string; id?: number; 'retry-after'?: number };

/**
 * Where a chat channel setting sends: `stream>topic` (Zulip's own narrow syntax) or a bare stream to
 * a stream, with the topic from `overrides.topic` or the step's subject; an email or a numeric user id
 * as a direct message.
 */
function destination(channel: string, message: OutboundMessage): Record<string, string> {
  if (channel.includes('@') || /^\d+$/.test(channel)) return { type: 'private', to: JSON.stringify([/^\d+$/.test(channel) ? Number(channel) : channel]) };
  const [stream, ...rest] = channel.split('>');
  const topic = rest.join('>') || String(message.overrides.topic ?? message.subject ?? '') || 'notifications';
  return { type: 'stream', to: stream, topic };
}

/**
 * Zulip's send-message REST API (POST /api/v1/messages, form-encoded, HTTP Basic with the bot's email
 * and API key) through Herald's guarded client: `zulip-js` has seen no release in years and its
 * requests take no timeout. `baseUrl` is the organization's URL (zulip is self-hosted as often as not,
 * so the guard on private addresses applies to it), `user` the bot's email, `apiKey` its key.
 * `private` rather than `direct` keeps servers before Zulip 7 working; newer ones take both.
 */
export class ZulipChatProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { baseUrl, user, apiKey } = credentials;
    if (!baseUrl || !user || !apiKey) throw new ProviderError('the integration has no baseUrl, user (the bot email) or apiKey', false);
    const channel = message.to.chatChannel;
    if (!channel) throw new ProviderError('the subscriber has no Zulip stream or user (a chat channel setting `channel`)', false);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${baseUrl.replace(/\/+$/, '')}/api/v1/messages`,
      headers: { authorization: basicAuth(user, apiKey), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...destination(channel, message), content: message.body }).toString(),
      secrets: [apiKey, basicAuth(user, apiKey).slice(6)],
      reason: (body: ZulipAnswer) => body.msg && `${body.code ?? 'error'}: ${body.msg}`,
      retryAfter: (body: ZulipAnswer) => body['retry-after'],
    });
    const body = answer.body as ZulipAnswer;
    if (body.result !== 'success') throw new ProviderError(`Zulip refused the message: ${body.msg ?? 'no success'}`, false, answer.raw);
    return { providerMessageId: body.id === undefined ? undefined : String(body.id), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'zulip', through: 'REST API (POST /api/v1/messages)', create: (kit) => new ZulipChatProvider(kit.http, { timeoutMs: kit.timeoutMs }) }),
];
