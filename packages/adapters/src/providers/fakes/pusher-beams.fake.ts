import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { pushOverrides } from '../testing/push-overrides';

const INSTANCE = '8f9a6e23-0000-4000-8000-beamsinstance';
const KEY = 'BEAMS-CONTRACT-PRIMARY-KEY-1';
const target = { to: { deviceTokens: ['user-ada'] }, credentials: { instanceId: INSTANCE, secretKey: KEY } };
const failure = (status: number, error: string, description: string) => ({ status, body: { error, description } });

/** Pusher Beams publish to users: `Authorization: Bearer <secret key>`, `{ publishId }` or `{ error, description }`. */
export const fake: ProviderFake = {
  id: 'pusher-beams',
  channel: 'push',
  overrides: pushOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/publish_api\/v1\/instances\/[^/]+\/publishes\/users$/,
        prefix: '/publish_api/',
        authorized: (r) => r.path === `/publish_api/v1/instances/${INSTANCE}/publishes/users` && r.headers.authorization === `Bearer ${KEY}`,
        accept: (_r, id) => ({ status: 200, body: { publishId: id } }),
        unauthorized: () => failure(401, 'Unauthorized', 'Incorrect API Key'),
        invalidRecipient: (r) => failure(422, 'Unprocessable Entity', `User IDs are not valid: ${(r.json.users as string[]).join(', ')}`),
        serverError: failure(500, 'Internal Server Error', 'Something went wrong'),
        rateLimited: { ...failure(429, 'Too Many Requests', 'Rate limit exceeded'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const { users, apns } = r.json as { users: string[]; apns: { aps: { alert: { title: string; body: string }; sound?: string; badge?: number }; data?: unknown } };
          return { to: users, body: apns.aps.alert.body, extra: { title: apns.aps.alert.title, data: apns.data, sound: apns.aps.sound, badge: apns.aps.badge } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, secretKey: 'BEAMS-WRONG-KEY-9' } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
