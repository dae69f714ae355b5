import { fakeServiceAccount } from '../../../../../test/support/service-account';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const account = fakeServiceAccount('herald-contract');
const stranger = fakeServiceAccount('someone-else');
const email = JSON.parse(account).client_email as string;
const target = { to: { deviceTokens: ['device-1'] }, credentials: { serviceAccount: account } };
const fcmError = (status: number, code: string, message: string, errorCode?: string) => ({
  status,
  body: { error: { code: status, message, status: code, details: errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : [] } },
});

/** The issuer of a JWT bearer assertion (Google's OAuth token request body). */
function issuer(assertion: string | undefined): string | undefined {
  try {
    return JSON.parse(Buffer.from(String(assertion).split('.')[1], 'base64url').toString()).iss;
  } catch {
    return undefined;
  }
}

/** FCM HTTP v1 messages:send, with Google's OAuth token endpoint, which takes only the fixture's service account. */
export const fake: ProviderFake = {
  id: 'fcm',
  channel: 'push',
  overrides: {
    given: { title: 'Shipped', data: { orderId: 'A-1' }, sound: 'chime' },
    wire: { body: 'Order A-1 is on its way', extra: { title: 'Shipped', data: { orderId: 'A-1' }, sound: 'chime' } },
  },
  unsupported: { retryAfter: 'firebase-admin gives no answer headers: QUOTA_EXCEEDED is transient with the policy backoff' },
  start: () =>
    startHttpService(
      {
        path: /^\/v1\/projects\/[^/]+\/messages:send$/,
        prefix: '/v1/projects/',
        authorized: (r) => r.headers.authorization === `Bearer ya29.${email}`,
        accept: (_r, id) => ({ status: 200, body: { name: id } }),
        unauthorized: () => fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'THIRD_PARTY_AUTH_ERROR'),
        invalidRecipient: () => fcmError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'),
        serverError: fcmError(500, 'INTERNAL', 'Internal error encountered.', 'INTERNAL'),
        rateLimited: { ...fcmError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', 'QUOTA_EXCEEDED'), headers: { 'retry-after': '7' } },
        wire: (r) => {
          const m = r.json.message;
          return { to: [m.token], body: m.notification?.body, extra: { title: m.notification?.title, data: m.data, sound: m.android?.notification?.sound } };
        },
        extraRoutes: (fake) =>
          fake.route('POST', /^\/token$/, (r) =>
            issuer(r.json?.assertion) === email
              ? { status: 200, body: { access_token: `ya29.${email}`, expires_in: 3600, token_type: 'Bearer' } }
              : { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } },
          ),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { serviceAccount: stranger } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
