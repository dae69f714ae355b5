import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { basicAuth } from './kit/provider-http';
import { requireCredentials } from './kit/require-credentials';

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
 * The server is the integration's own, so an operator endpoint for the id does not replace it.
 */
export class ZulipChatProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { baseUrl, user, apiKey } = requireCredentials(credentials, ['baseUrl', 'user', 'apiKey']);
    const channel = message.to.chatChannel;
    if (!channel) throw new ProviderError('the subscriber has no Zulip stream or user (a chat channel setting `channel`)', false);
    const answer = await this.call({
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
  defineProvider({ id: 'zulip', through: 'REST API (POST /api/v1/messages)', create: (kit) => new ZulipChatProvider(kit) }),
];
