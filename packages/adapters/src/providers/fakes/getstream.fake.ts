import { createHmac } from 'node:crypto';
import type { ProviderFake } from '../testing/provider-fake';
import type { RecordedRequest } from '../../../../../test/support/http-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'streamcontractkey';
const SECRET = 'stream-contract-app-secret-1';
const target = { to: { chatChannel: 'messaging:orders' }, credentials: { apiKey: KEY, secretKey: SECRET } };
const failure = (status: number, code: number, message: string) => ({ status, body: { code, message, StatusCode: status, duration: '0.01ms' } });

/** A server-side request: the app key in the query, and a JWT signed (HS256) with the app secret. */
function signedByApp(r: RecordedRequest): boolean {
  const [header, payload, signature] = String(r.headers.authorization ?? '').split('.');
  const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url');
  return new URL(r.path, 'http://stream').searchParams.get('api_key') === KEY && r.headers['stream-auth-type'] === 'jwt' && signature === expected;
}

/** Stream Chat's send message (POST /channels/<type>/<id>/message): `{ message: { id } }` or `{ code, message, StatusCode }`. */
export const fake: ProviderFake = {
  id: 'getstream',
  channel: 'chat',
  overrides: { given: {}, wire: { to: ['orders'], body: 'Order A-1 is on its way', extra: { type: 'messaging', user: 'herald' } } },
  // Stream's 429s say when the window resets (X-RateLimit-Reset, to the second), not Retry-After.
  unsupported: { retryAfter: 'Stream gives X-RateLimit-Reset (a Unix time, to the second), read as the wait' },
  start: () =>
    startHttpService(
      {
        path: /^\/channels\/[^/]+\/[^/?]+\/message(\?|$)/,
        prefix: '/channels/',
        authorized: signedByApp,
        accept: (r, id) => ({ status: 201, body: { message: { id, text: r.json.message.text, user: { id: r.json.message.user_id } }, duration: '1.00ms' } }),
        unauthorized: () => failure(401, 5, 'JWTAuth failed: signature is invalid'),
        invalidRecipient: (r) => failure(404, 16, `GetOrCreateChannel failed with error: "channel ${decodeURIComponent(r.path.split('/')[3])} does not exist"`),
        serverError: failure(500, -1, 'internal system error'),
        get rateLimited() {
          return { ...failure(429, 9, 'Too many requests, check response headers for more information.'), headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.round(Date.now() / 1000) + 7) } };
        },
        wire: (r) => {
          const [, , type, id] = r.path.split('?')[0].split('/');
          return { to: [decodeURIComponent(id)], body: r.json.message.text, extra: { type, user: r.json.message.user_id } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, secretKey: 'stream-wrong-secret-9' } }),
        invalidRecipient: () => ({ ...target, to: { chatChannel: INVALID.chatChannel } }),
      },
    ),
};
