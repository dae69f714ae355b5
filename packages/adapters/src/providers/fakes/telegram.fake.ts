import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const BOT = '123456:contract-bot-token-AAH';
const target = { to: { chatChannel: '-1001234567890' }, credentials: { apiToken: BOT } };
const refused = (status: number, description: string, extra: object = {}) => ({ status, body: { ok: false, error_code: status, description, ...extra } });

/** Telegram Bot API sendMessage: the bot token in the path; `{ ok, result }` or `{ ok: false, error_code, description }`. */
export const fake: ProviderFake = {
  id: 'telegram',
  channel: 'chat',
  overrides: { given: { parseMode: 'HTML', silent: true }, wire: { body: 'Order A-1 is on its way', extra: { parse_mode: 'HTML', disable_notification: true } } },
  start: () =>
    startHttpService(
      {
        path: /^\/bot[^/]+\/sendMessage$/,
        prefix: '/bot',
        authorized: (r) => r.path === `/bot${BOT}/sendMessage`,
        accept: (r, id) => ({ status: 200, body: { ok: true, result: { message_id: id, chat: { id: r.json.chat_id }, text: r.json.text } } }),
        unauthorized: () => refused(401, 'Unauthorized'),
        invalidRecipient: () => refused(400, 'Bad Request: chat not found'),
        serverError: refused(502, 'Bad Gateway'),
        // Telegram says how long to wait in the body, not in a header.
        rateLimited: refused(429, 'Too Many Requests: retry after 7', { parameters: { retry_after: 7 } }),
        wire: (r) => ({ to: [String(r.json.chat_id)], body: r.json.text, extra: { parse_mode: r.json.parse_mode, disable_notification: r.json.disable_notification } }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { apiToken: '654321:wrong-bot-token-ZZZ' } }),
        invalidRecipient: () => ({ ...target, to: { chatChannel: INVALID.chatChannel } }),
      },
    ),
};
