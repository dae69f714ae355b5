import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

const API = 'https://api.telegram.org';

type TelegramAnswer = { ok: boolean; result?: { message_id?: number | string }; description?: string; parameters?: { retry_after?: number } };

/**
 * Telegram Bot API sendMessage through Herald's guarded client: Telegram publishes no Node SDK of its
 * own, only the HTTP API. `apiToken` is the bot token (it is part of the URL, so every error is
 * redacted of it); the chat is the subscriber's chat channel setting (`channel`, the chat id).
 * `overrides.parseMode` (HTML, MarkdownV2) and `overrides.silent` reach the call.
 */
export class TelegramChatProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const token = credentials.apiToken;
    if (!token) throw new ProviderError('the integration has no apiToken (the bot token)', false);
    const chat = message.to.chatChannel;
    if (!chat) throw new ProviderError('the subscriber has no Telegram chat id (a chat channel setting `channel`)', false);
    const o = message.overrides;
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/bot${token}/sendMessage`,
      json: {
        chat_id: chat,
        text: message.body,
        ...(typeof o.parseMode === 'string' ? { parse_mode: o.parseMode } : {}),
        ...(o.silent === true ? { disable_notification: true } : {}),
      },
      secrets: [token],
      reason: (body: TelegramAnswer) => body.description,
      retryAfter: (body: TelegramAnswer) => body.parameters?.retry_after,
    });
    const body = answer.body as TelegramAnswer;
    if (!body.ok) throw new ProviderError(`Telegram refused the message: ${body.description ?? 'not ok'}`, false, answer.raw);
    const id = body.result?.message_id;
    return { providerMessageId: id === undefined ? undefined : String(id), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'telegram', through: 'Bot API (POST /bot<token>/sendMessage)', create: (kit) => new TelegramChatProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
