import { emailOverrides, parseMailbox, wireHeaders } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const ACCESS_KEY = 'AKIACONTRACT0001';
const SECRET = 'ses-contract-secret-1';
const target = { to: { email: 'ada@example.com' }, credentials: { apiKey: ACCESS_KEY, secretKey: SECRET, region: 'eu-west-1', from: 'shop@herald.test', senderName: 'Shop' } };
// SES names the error in x-amzn-ErrorType and explains it in the body's message.
const error = (status: number, type: string, message: string) => ({ status, headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` }, body: { message } });

/** SES v2 SendEmail (POST /v2/email/outbound-emails, SigV4): `{ MessageId }`. The fake checks the signing key id. */
export const fake: ProviderFake = {
  id: 'ses',
  channel: 'email',
  overrides: emailOverrides(),
  start: () =>
    startHttpService(
      {
        path: /^\/v2\/email\/outbound-emails$/,
        prefix: '/v2/email/outbound-emails',
        authorized: (r) => String(r.headers.authorization).includes(`Credential=${ACCESS_KEY}/`) && String(r.headers.authorization).includes('/eu-west-1/ses/aws4_request'),
        accept: (_r, id) => ({ status: 200, body: { MessageId: id } }),
        unauthorized: () => error(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.'),
        invalidRecipient: () => error(400, 'BadRequestException', 'Illegal address'),
        serverError: error(500, 'InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.'),
        rateLimited: { ...error(429, 'TooManyRequestsException', 'Maximum sending rate exceeded.'), headers: { 'x-amzn-errortype': 'TooManyRequestsException', 'retry-after': '7' } },
        wire: (r) => {
          const simple = r.json.Content.Simple;
          const from = parseMailbox(r.json.FromEmailAddress);
          return {
            to: r.json.Destination.ToAddresses,
            cc: r.json.Destination.CcAddresses,
            bcc: r.json.Destination.BccAddresses,
            from: from.address,
            senderName: from.name,
            replyTo: r.json.ReplyToAddresses?.[0],
            subject: simple?.Subject.Data,
            body: simple?.Body.Html?.Data,
            text: simple?.Body.Text?.Data,
            headers: wireHeaders(simple?.Headers),
            attachments: simple?.Attachments?.map((a: { FileName: string; ContentType: string; RawContent: string }) => ({ filename: a.FileName, contentType: a.ContentType, content: a.RawContent })),
          };
        },
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiKey: 'AKIAWRONGKEY0009', secretKey: 'ses-wrong-secret-9' } }),
        invalidRecipient: () => ({ ...target, to: { email: INVALID.email } }),
      },
    ),
};
