import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { pushOverrides } from '../testing/push-overrides';

const TOKEN = 'expo-contract-access-token-1';
const target = { to: { deviceTokens: ['ExponentPushToken[device-1]'] }, credentials: { apiKey: TOKEN } };
const failure = (status: number, code: string, message: string) => ({ status, body: { errors: [{ code, message, isTransient: status >= 500 || status === 429 }] } });

/** Expo's push send API: a JSON array of messages in, one ticket per message out; errors `{ errors: [{ code, message }] }`. */
export const fake: ProviderFake = {
  id: 'expo',
  channel: 'push',
  overrides: pushOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/--\/api\/v2\/push\/send$/,
        prefix: '/--/api/v2/push/send',
        authorized: (r) => r.headers.authorization === `Bearer ${TOKEN}`,
        accept: (r, id) => ({ status: 200, body: { data: (r.json as unknown[]).map(() => ({ status: 'ok', id })) } }),
        unauthorized: () => failure(401, 'UNAUTHORIZED', 'The bearer token is invalid; check the access token you are using.'),
        // A token Expo no longer knows is a 200 with an error ticket, as the service answers it.
        invalidRecipient: () => ({
          status: 200,
          body: { data: [{ status: 'error', message: `"${INVALID.deviceToken}" is not a registered push notification recipient`, details: { error: 'DeviceNotRegistered' } }] },
        }),
        serverError: failure(503, 'INTERNAL_SERVER_ERROR', 'An unknown error occurred.'),
        rateLimited: { ...failure(429, 'TOO_MANY_REQUESTS', 'Rate limit exceeded.'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const [m] = r.json as Array<Record<string, unknown>>;
          return { to: (r.json as Array<{ to: string }>).map((x) => x.to), body: m.body as string, extra: { title: m.title, data: m.data, sound: m.sound, badge: m.badge } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { apiKey: 'expo-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
