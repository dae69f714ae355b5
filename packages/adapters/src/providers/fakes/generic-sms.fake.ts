import type { ProviderFake } from '../testing/provider-fake';
import { INVALID, startHttpService } from '../testing/http-service-fake';

const KEY = 'gw-contract-key-1';
const credentials = (url: string, apiKey = KEY) => ({ baseUrl: `${url}/sms/send`, apiKeyRequestHeader: 'x-api-key', apiKey, from: 'Shop', idPath: 'data.id' });

/** Any JSON SMS gateway: the key in the header the integration names, the id where `idPath` says. */
export const fake: ProviderFake = {
  id: 'generic-sms',
  channel: 'sms',
  overrides: { given: { from: 'Orders' }, wire: { from: 'Orders', body: 'Order A-1 is on its way' } },
  start: () =>
    startHttpService(
      {
        path: /^\/sms\/send$/,
        prefix: '/sms/send',
        authorized: (r) => r.headers['x-api-key'] === KEY,
        accept: (_r, id) => ({ status: 200, body: { data: { id } } }),
        unauthorized: () => ({ status: 401, body: { error: 'invalid API key' } }),
        invalidRecipient: () => ({ status: 400, body: { error: 'invalid destination number' } }),
        serverError: { status: 502, body: { error: 'upstream carrier unavailable' } },
        rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { error: 'slow down' } },
        wire: (r) => ({ to: [r.json.to], from: r.json.from, body: r.json.content }),
      },
      {
        target: (url) => ({ to: { phone: '+15550001111' }, credentials: credentials(url) }),
        badCredentials: (url) => ({ to: { phone: '+15550001111' }, credentials: credentials(url, 'gw-wrong-key-9') }),
        invalidRecipient: (url) => ({ to: { phone: INVALID.phone }, credentials: credentials(url) }),
      },
    ),
};
