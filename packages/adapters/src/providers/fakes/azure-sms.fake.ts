import { createHash, createHmac } from 'node:crypto';
import type { RecordedRequest } from '../../../../../test/support/http-fake';
import type { ProviderFake } from '../testing/provider-fake';
import { startHttpService } from '../testing/http-service-fake';
import { SMS_OVERRIDES, smsTargets } from '../testing/sms-fake';

const KEY = Buffer.from('azure-sms-contract-access-key-0001').toString('base64');
const error = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
const recipient = (to: string, status: number, id: string | null, errorMessage: string | null) => ({ to, messageId: id, httpStatusCode: status, repeatabilityResult: 'accepted', successful: status === 202, errorMessage });

/** Checks the request's HMAC-SHA256 signature as the service does: over the method, path and query, date, host and content hash. */
function signed(r: RecordedRequest): boolean {
  const date = String(r.headers['x-ms-date']);
  const hash = createHash('sha256').update(r.body).digest('base64');
  if (r.headers['x-ms-content-sha256'] !== hash || Math.abs(Date.parse(date) - Date.now()) > 15 * 60_000) return false;
  const signature = createHmac('sha256', Buffer.from(KEY, 'base64')).update(`POST\n${r.path}\n${date};${r.headers.host};${hash}`).digest('base64');
  return r.headers.authorization === `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`;
}

/**
 * Azure Communication Services POST /sms?api-version=2021-03-07, HMAC-SHA256 signed: `{ from,
 * smsRecipients: [{ to }], message, smsSendOptions }`; 202 `{ value: [{ to, messageId, httpStatusCode,
 * successful, errorMessage }] }`, a refused number as its recipient's 400; errors `{ error: { code, message } }`.
 */
export const fake: ProviderFake = {
  id: 'azure-sms',
  channel: 'sms',
  overrides: { given: { ...SMS_OVERRIDES.given, tag: 'orders' }, wire: { ...SMS_OVERRIDES.wire, extra: { tag: 'orders' } } },
  start: () =>
    startHttpService(
      {
        path: /^\/sms\?api-version=2021-03-07$/,
        prefix: '/sms',
        authorized: signed,
        accept: (r, id) => ({ status: 202, body: { value: [recipient(r.json.smsRecipients[0].to, 202, id, null)] } }),
        unauthorized: () => error(401, 'Denied', 'Denied by the resource provider.'),
        invalidRecipient: (r) => ({ status: 202, body: { value: [recipient(r.json.smsRecipients[0].to, 400, null, 'Invalid To phone number format.')] } }),
        serverError: error(500, 'InternalServerError', 'An internal error occurred.'),
        rateLimited: { ...error(429, 'TooManyRequests', 'Too many requests.'), headers: { 'retry-after': '7' } },
        wire: (r) => ({ to: r.json.smsRecipients.map((s: { to: string }) => s.to), from: r.json.from, body: r.json.message, extra: { tag: r.json.smsSendOptions?.tag } }),
      },
      // The connection string names the resource's endpoint: here the fake.
      smsTargets((url) => ({ accessKey: `endpoint=${url}/;accesskey=${KEY}`, from: '+15559998888' }), (url) => ({ accessKey: `endpoint=${url}/;accesskey=${Buffer.from('azure-sms-wrong-access-key-0009').toString('base64')}` }), { endpoint: false }),
    ),
};
