import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const TOKEN = 'rocketContractPersonalToken1';
const USER = 'aobEdbYhXfu5hkeqG';
const credentials = (url: string, token = TOKEN) => ({ token, user: USER, baseUrl: url });
const refused = (status: number, error: string, errorType: string) => ({ status, body: { success: false, error, errorType } });

/** Rocket.Chat's chat.postMessage: X-Auth-Token and X-User-Id headers; `{ success, message: { _id } }` or `{ success: false, error }`. */
export const fake: ProviderFake = {
  id: 'rocket-chat',
  channel: 'chat',
  overrides: { given: { alias: 'Herald', emoji: ':package:' }, wire: { to: ['#general'], body: 'Order A-1 is on its way', extra: { alias: 'Herald', emoji: ':package:' } } },
  start: () =>
    startHttpService(
      {
        path: /^\/api\/v1\/chat\.postMessage$/,
        prefix: '/api/v1/',
        authorized: (r) => r.headers['x-auth-token'] === TOKEN && r.headers['x-user-id'] === USER,
        accept: (r, id) => ({ status: 200, body: { ts: Date.now(), channel: r.json.channel ?? r.json.roomId, message: { _id: id, rid: 'GENERAL', msg: r.json.text }, success: true } }),
        unauthorized: () => ({ status: 401, body: { status: 'error', message: 'You must be logged in to do this.' } }),
        invalidRecipient: () => refused(400, '[invalid-channel]', 'invalid-channel'),
        serverError: refused(500, 'Internal server error', 'error-internal'),
        rateLimited: refused(429, 'Error, too many requests. Please slow down. You must wait 7 seconds before trying this endpoint again. [error-too-many-requests]', 'error-too-many-requests'),
        wire: (r) => ({ to: [r.json.channel ?? r.json.roomId], body: r.json.text, extra: { alias: r.json.alias, emoji: r.json.emoji } }),
      },
      {
        target: (url) => ({ to: { chatChannel: '#general' }, credentials: credentials(url) }),
        badCredentials: (url) => ({ to: { chatChannel: '#general' }, credentials: credentials(url, 'rocketWrongToken9') }),
        invalidRecipient: (url) => ({ to: { chatChannel: INVALID.chatChannel }, credentials: credentials(url) }),
      },
    ),
};
