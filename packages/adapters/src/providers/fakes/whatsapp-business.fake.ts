import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const PHONE_ID = '106540352242922';
const TOKEN = 'EAAGcontractSystemUserToken1';
const target = { to: { chatChannel: '15551234567' }, credentials: { apiToken: TOKEN, phoneNumberIdentification: PHONE_ID } };
const graphError = (status: number, code: number, message: string, type = 'OAuthException') => ({ status, body: { error: { message, type, code, fbtrace_id: 'AbCdEf123' } } });
const tpl = { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }] };

/** Meta's Cloud API send: a bearer token, `{ messaging_product, contacts, messages: [{ id }] }` or a Graph `{ error: { code } }`. */
export const fake: ProviderFake = {
  id: 'whatsapp-business',
  channel: 'chat',
  overrides: { given: { template: { name: 'order_update', language: 'en_US', components: tpl.components } }, wire: { to: ['15551234567'], extra: { type: 'template', template: tpl } } },
  // Graph throttling errors (code 130429) are answered 400 without a Retry-After.
  unsupported: { retryAfter: 'the Cloud API gives no Retry-After with its rate-limit errors' },
  start: () =>
    startHttpService(
      {
        path: /^\/v\d+\.\d+\/[^/]+\/messages$/,
        prefix: '/v',
        authorized: (r) => r.path.endsWith(`/${PHONE_ID}/messages`) && r.headers.authorization === `Bearer ${TOKEN}` && r.json.messaging_product === 'whatsapp',
        accept: (r, id) => ({ status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: r.json.to, wa_id: r.json.to }], messages: [{ id }] } }),
        unauthorized: () => graphError(401, 190, 'Error validating access token: The session is invalid.'),
        invalidRecipient: () => graphError(400, 131030, '(#131030) Recipient phone number not in allowed list', 'OAuthException'),
        serverError: graphError(500, 131000, 'Something went wrong'),
        rateLimited: graphError(400, 130429, '(#130429) Rate limit hit'),
        wire: (r) => ({ to: [r.json.to], body: r.json.text?.body, extra: { type: r.json.type, ...(r.json.template ? { template: r.json.template } : {}) } }),
      },
      {
        endpoint: (url) => url,
        target: () => target,
        badCredentials: () => ({ ...target, credentials: { ...target.credentials, apiToken: 'EAAGwrongToken9' } }),
        invalidRecipient: () => ({ ...target, to: { chatChannel: INVALID.chatChannel } }),
      },
    ),
};
