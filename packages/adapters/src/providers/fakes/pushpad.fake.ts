import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const PROJECT = '5287';
const TOKEN = 'pushpad-contract-auth-token-1';
const target = { to: { deviceTokens: ['uid-ada'] }, credentials: { apiKey: TOKEN, applicationId: PROJECT } };
const failure = (status: number, error: string) => ({ status, body: { error } });

/** Pushpad's create notification: `Authorization: Token token="..."`, 201 `{ id, scheduled, uids }` naming the uids it reached. */
export const fake: ProviderFake = {
  id: 'pushpad',
  channel: 'push',
  overrides: {
    given: { title: 'Shipped', data: { orderId: 'A-1' }, sound: 'chime', badge: 3 },
    wire: { body: 'Order A-1 is on its way', extra: { title: 'Shipped', data: { orderId: 'A-1' } } },
    unmapped: { sound: 'web push has no sound', badge: "Pushpad's badge is an image URL, not a count" },
  },
  start: () =>
    startHttpService(
      {
        path: /^\/api\/v1\/projects\/[^/]+\/notifications$/,
        prefix: '/api/v1/projects/',
        authorized: (r) => r.path === `/api/v1/projects/${PROJECT}/notifications` && r.headers.authorization === `Token token="${TOKEN}"`,
        accept: (r, id) => ({ status: 201, body: { id, scheduled: r.json.uids.length, uids: r.json.uids, send_at: null } }),
        unauthorized: () => failure(401, 'Unauthorized: invalid access token'),
        // Pushpad accepts a notification for uids without subscriptions and reaches none of them.
        invalidRecipient: (r) => ({ status: 201, body: { id: 0, scheduled: 0, uids: [], request: { uids: r.json.uids } } }),
        serverError: failure(503, 'Service Unavailable'),
        rateLimited: { ...failure(429, 'Too many requests'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const n = r.json.notification as { title: string; body: string; custom_data?: string };
          return { to: r.json.uids, body: n.body, extra: { title: n.title, data: n.custom_data ? JSON.parse(n.custom_data) : undefined } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'pushpad-wrong-token-9' } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
