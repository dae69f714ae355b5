import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { pushOverrides } from '../testing/push-overrides';

const APP = 'b2f7f966-d8cc-11e4-bed1-df8f05be55ba';
const KEY = 'os_v2_app_contract_rest_key_1';
const target = { to: { deviceTokens: ['5b2f1a8e-0000-4000-8000-000000000001'] }, credentials: { applicationId: APP, apiKey: KEY } };
const errors = (status: number, ...messages: string[]) => ({ status, body: { errors: messages } });

/** OneSignal's create notification (POST /notifications, `Authorization: Key <REST API key>`); a notification id, or `{ errors }`. */
export const fake: ProviderFake = {
  id: 'one-signal',
  channel: 'push',
  overrides: pushOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/notifications$/,
        prefix: '/notifications',
        authorized: (r) => r.headers.authorization === `Key ${KEY}` && r.json?.app_id === APP,
        accept: (_r, id) => ({ status: 200, body: { id, external_id: null } }),
        unauthorized: () => errors(403, "Access denied.  Please include an 'Authorization: Key ...' header with a valid API key"),
        // OneSignal answers 200 with no id when no included subscription can take the notification.
        invalidRecipient: () => ({ status: 200, body: { id: '', errors: ['All included players are not subscribed'] } }),
        serverError: errors(500, 'Internal server error'),
        rateLimited: { ...errors(429, 'API rate limit exceeded'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const n = r.json as Record<string, any>;
          return { to: n.include_subscription_ids, body: n.contents?.en, extra: { title: n.headings?.en, data: n.data, sound: n.ios_sound, badge: n.ios_badgeCount } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'os_v2_app_wrong_key_9' } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
