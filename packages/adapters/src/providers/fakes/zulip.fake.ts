import type { ProviderFake } from '../testing/provider-fake';
import { basicAuth } from '../kit/provider-http';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const BOT = 'herald-bot@zulip.example.com';
const KEY = 'zulipContractApiKey1';
const credentials = (url: string, apiKey = KEY) => ({ baseUrl: url, user: BOT, apiKey });
const failure = (status: number, code: string, msg: string, extra: object = {}) => ({ status, body: { result: 'error', code, msg, ...extra } });

/** Zulip's send message: form fields, HTTP Basic (bot email, API key); `{ result: 'success', id }` or `{ result: 'error', code, msg }`. */
export const fake: ProviderFake = {
  id: 'zulip',
  channel: 'chat',
  overrides: { given: { topic: 'deploys' }, wire: { to: ['general'], body: 'Order A-1 is on its way', extra: { type: 'stream', topic: 'deploys' } } },
  start: () =>
    startHttpService(
      {
        path: /^\/api\/v1\/messages$/,
        prefix: '/api/v1/messages',
        authorized: (r) => r.headers.authorization === basicAuth(BOT, KEY),
        accept: (_r, id) => ({ status: 200, body: { result: 'success', msg: '', id } }),
        unauthorized: () => failure(401, 'UNAUTHORIZED', 'Invalid API key'),
        invalidRecipient: (r) => failure(400, 'STREAM_DOES_NOT_EXIST', `Channel '${r.json.to}' does not exist`, { stream: r.json.to }),
        serverError: { status: 502, body: '<html><body>502 Bad Gateway</body></html>' },
        rateLimited: { ...failure(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': 7 }), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: [r.json.to], body: r.json.content, extra: { type: r.json.type, topic: r.json.topic } }),
      },
      {
        target: (url) => ({ to: { chatChannel: 'general' }, credentials: credentials(url) }),
        badCredentials: (url) => ({ to: { chatChannel: 'general' }, credentials: credentials(url, 'zulipWrongApiKey9') }),
        invalidRecipient: (url) => ({ to: { chatChannel: INVALID.chatChannel }, credentials: credentials(url) }),
      },
    ),
};
