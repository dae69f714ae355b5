import { generateKeyPairSync, verify } from 'node:crypto';
import type { RecordedRequest } from '../../../../../test/support/http-fake';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';
import { pushOverrides } from '../testing/push-overrides';

const p8 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const account = p8();
const stranger = p8();
const KEY_ID = 'ABC123DEFG';
const TEAM_ID = 'TEAM123456';
const BUNDLE = 'com.example.shop';
const pem = (pair: ReturnType<typeof p8>) => pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const credentials = { secretKey: pem(account), apiKey: KEY_ID, projectName: TEAM_ID, applicationId: BUNDLE };
const target = { to: { deviceTokens: ['a1b2c3d4e5f6'] }, credentials };
const reason = (status: number, why: string) => ({ status, body: { reason: why } });

/** Whether the request's provider token is signed by the fixture's key, with its key id and team. */
function signedByAccount(r: RecordedRequest): boolean {
  const [head, claims, signature] = String(r.headers.authorization ?? '').replace(/^bearer /, '').split('.');
  if (!signature) return false;
  const header = JSON.parse(Buffer.from(head, 'base64url').toString());
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString());
  const valid = verify('sha256', Buffer.from(`${head}.${claims}`), { key: account.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  return valid && header.alg === 'ES256' && header.kid === KEY_ID && body.iss === TEAM_ID && r.headers['apns-topic'] === BUNDLE;
}

/** APNs provider API over HTTP/2: POST /3/device/<token>, 200 with an apns-id header; errors `{ reason }`. */
export const fake: ProviderFake = {
  id: 'apns',
  channel: 'push',
  overrides: pushOverrides(),
  unsupported: { retryAfter: 'APNs answers 429 TooManyRequests with no Retry-After: it is transient with the policy backoff' },
  start: () =>
    startHttpService(
      {
        http2: true,
        path: /^\/3\/device\/[^/]+$/,
        prefix: '/3/device/',
        authorized: signedByAccount,
        accept: (_r, id) => ({ status: 200, headers: { 'apns-id': id }, body: '' }),
        unauthorized: () => reason(403, 'InvalidProviderToken'),
        invalidRecipient: () => reason(400, 'BadDeviceToken'),
        serverError: reason(503, 'ServiceUnavailable'),
        rateLimited: reason(429, 'TooManyRequests'),
        wire: (r) => {
          const { aps, ...data } = r.json as { aps: { alert: { title: string; body: string }; sound?: string; badge?: number } };
          return { to: [decodeURIComponent(r.path.split('/').at(-1)!)], body: aps.alert.body, extra: { title: aps.alert.title, data, sound: aps.sound, badge: aps.badge } };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...credentials, secretKey: pem(stranger) } }),
        invalidRecipient: () => ({ ...target, to: { deviceTokens: [INVALID.deviceToken] } }),
      },
    ),
};
