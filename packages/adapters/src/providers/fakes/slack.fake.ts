import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const TOKEN = 'xoxb-contract-token-1';
const target = { to: { chatChannel: 'C0123' }, credentials: {}, auth: { accessToken: TOKEN } };
// Slack answers platform errors with 200 and `ok: false`.
const platform = (error: string) => ({ status: 200, body: { ok: false, error } });
const BLOCKS = [{ type: 'section', text: { type: 'mrkdwn', text: '*Order A-1*' } }];

/** Slack Web API chat.postMessage with the connection's bot token; the message `ts` is its id. */
export const fake: ProviderFake = {
  id: 'slack',
  channel: 'chat',
  overrides: { given: { blocks: BLOCKS }, wire: { body: 'Order A-1 is on its way', extra: { blocks: BLOCKS } } },
  start: () =>
    startHttpService(
      {
        path: /^\/api\/chat\.postMessage$/,
        prefix: '/api/chat.postMessage',
        authorized: (r) => r.headers.authorization === `Bearer ${TOKEN}`,
        accept: (r, id) => ({ status: 200, body: { ok: true, channel: r.json.channel, ts: id, message: { text: r.json.text } } }),
        unauthorized: () => platform('invalid_auth'),
        invalidRecipient: () => platform('channel_not_found'),
        serverError: { status: 500, body: 'Internal Server Error' },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { ok: false, error: 'ratelimited' } },
        wire: (r) => ({ to: [r.json.channel], body: r.json.text, extra: { blocks: typeof r.json.blocks === 'string' ? JSON.parse(r.json.blocks) : r.json.blocks } }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, auth: { accessToken: 'xoxb-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { chatChannel: INVALID.chatChannel } }),
      },
    ),
};
