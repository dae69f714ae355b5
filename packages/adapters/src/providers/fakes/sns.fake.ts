import type { RecordedRequest } from '../../../../../test/support/http-fake';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const ACCESS_KEY = 'AKIACONTRACTSNS01';
const target = { to: { phone: '+15550001111' }, credentials: { apiKey: ACCESS_KEY, secretKey: 'sns-contract-secret-1', region: 'us-east-1', from: 'HERALD' } };
const xml = (status: number, text: string) => ({ status, headers: { 'content-type': 'text/xml' }, body: text });
// The Query protocol's error document: the code names the error, the type says whose fault it is.
const error = (status: number, type: 'Sender' | 'Receiver', code: string, message: string) =>
  xml(status, `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>req-1</RequestId></ErrorResponse>`);

/** The value of a message attribute in a Query-protocol form (MessageAttributes.entry.N.Name / .Value.StringValue). */
function attribute(r: RecordedRequest, name: string): string | undefined {
  const entry = Object.entries(r.json as Record<string, string>).find(([k, v]) => /^MessageAttributes\.entry\.\d+\.Name$/.test(k) && v === name)?.[0];
  return entry ? (r.json as Record<string, string>)[entry.replace(/Name$/, 'Value.StringValue')] : undefined;
}

/** SNS Publish over the AWS Query protocol (form-encoded Action=Publish, SigV4), answered in XML. */
export const fake: ProviderFake = {
  id: 'sns',
  channel: 'sms',
  overrides: { given: { from: 'ORDERS' }, wire: { from: 'ORDERS', body: 'Order A-1 is on its way' } },
  unsupported: { retryAfter: 'SNS answers ThrottledException (429) with no Retry-After: it is transient with the policy backoff' },
  start: () =>
    startHttpService(
      {
        path: /^\/$/,
        prefix: '/',
        authorized: (r) => String(r.headers.authorization).includes(`Credential=${ACCESS_KEY}/`) && String(r.headers.authorization).includes('/us-east-1/sns/aws4_request') && r.json?.Action === 'Publish',
        accept: (_r, id) =>
          xml(200, `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>${id}</MessageId></PublishResult><ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata></PublishResponse>`),
        unauthorized: () => error(403, 'Sender', 'InvalidClientTokenId', 'The security token included in the request is invalid.'),
        invalidRecipient: () => error(400, 'Sender', 'InvalidParameter', `Invalid parameter: PhoneNumber Reason: ${INVALID.phone} is not valid to publish to`),
        serverError: error(500, 'Receiver', 'InternalError', 'An internal service error occurred.'),
        rateLimited: error(429, 'Sender', 'Throttled', 'Rate exceeded'),
        wire: (r) => ({ to: [r.json.PhoneNumber], body: r.json.Message, from: attribute(r, 'AWS.SNS.SMS.SenderID') }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'AKIAWRONGKEY0009' } }),
        invalidRecipient: () => ({ ...target, to: { phone: INVALID.phone } }),
      },
    ),
};
