import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

type RocketAnswer = { success?: boolean; error?: string; message?: string | { _id?: string }; status?: string };

/**
 * Rocket.Chat's REST API chat.postMessage (POST /api/v1/chat.postMessage, headers X-Auth-Token and
 * X-User-Id) through Herald's guarded client: Rocket.Chat's JS SDK is for bots over its realtime API
 * and is no longer maintained. `token` is a personal access token, `user` its user id. The server is
 * `baseUrl`, or the subscriber's `webhookUrl` as Novu's provider reads it; the chat channel setting
 * (`channel`) is `#channel`, `@user` or a room id. Rate limits say their wait in the error text only.
 * The server is the integration's or subscriber's own, so an operator endpoint does not replace it.
 */
export class RocketChatChatProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { token, user } = requireCredentials(credentials, ['token', 'user']);
    const server = credentials.baseUrl ?? message.to.webhookUrl;
    if (!server) throw new ProviderError('no Rocket.Chat server: set the integration baseUrl or the subscriber webhookUrl', false);
    const room = message.to.chatChannel;
    if (!room) throw new ProviderError('the subscriber has no Rocket.Chat room (a chat channel setting `channel`)', false);
    const o = message.overrides;
    const answer = await this.call({
      url: `${server.replace(/\/+$/, '')}/api/v1/chat.postMessage`,
      headers: { 'x-auth-token': token, 'x-user-id': user },
      json: {
        ...(/^[#@]/.test(room) ? { channel: room } : { roomId: room }),
        text: message.body,
        ...(typeof o.alias === 'string' ? { alias: o.alias } : {}),
        ...(typeof o.emoji === 'string' ? { emoji: o.emoji } : {}),
      },
      secrets: [token],
      reason: (body: RocketAnswer) => body.error ?? (typeof body.message === 'string' ? body.message : undefined),
      retryAfter: (body: RocketAnswer) => {
        const wait = /wait (\d+) seconds?/.exec(body.error ?? '');
        return wait ? Number(wait[1]) : undefined;
      },
    });
    const body = answer.body as RocketAnswer;
    if (body.success !== true) throw new ProviderError(`Rocket.Chat refused the message: ${body.error ?? 'no success'}`, false, answer.raw);
    return { providerMessageId: typeof body.message === 'object' ? body.message._id : undefined, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'rocket-chat', through: 'REST API (POST /api/v1/chat.postMessage)', create: (kit) => new RocketChatChatProvider(kit) }),
];
