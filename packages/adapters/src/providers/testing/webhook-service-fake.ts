import { verifyRequestSignature } from '@herald/domain';
import type { OutboundMessage } from '@herald/domain';
import type { ProviderFake } from './provider-fake';
import { startHttpService } from './http-service-fake';

const SECRET = 'whsec-contract-secret-1';

/**
 * A receiver of Herald's signed webhooks (email-webhook, chat-webhook, push-webhook): it checks the
 * `herald-signature` HMAC and answers with an `x-message-id`.
 */
export function signedWebhookFake(id: string, channel: OutboundMessage['channel'], to: Omit<OutboundMessage['to'], 'subscriberId'>): ProviderFake {
  const credentials = (url: string, secretKey = SECRET) => ({ webhookUrl: `${url}/hooks/${id}`, secretKey });
  return {
    id,
    channel,
    overrides: { given: {}, wire: { body: channel === 'email' ? '<p>Order A-1 is on its way</p>' : 'Order A-1 is on its way', subject: 'Order A-1' } },
    unsupported: { invalidRecipient: 'the receiver takes any recipient: it is the tenant’s own endpoint' },
    start: () =>
      startHttpService(
        {
          path: new RegExp(`^/hooks/${id}$`),
          prefix: `/hooks/${id}`,
          authorized: (r) => verifyRequestSignature(SECRET, r.body, String(r.headers['herald-signature'] ?? '')),
          accept: (_r, messageId) => ({ status: 200, headers: { 'x-message-id': messageId }, body: { received: true } }),
          unauthorized: () => ({ status: 401, body: { error: 'bad signature' } }),
          invalidRecipient: () => ({ status: 422, body: { error: 'unknown recipient' } }),
          serverError: { status: 503, body: { error: 'unavailable' } },
          rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { error: 'slow down' } },
          wire: (r) => ({ to: [JSON.stringify(r.json.to)], subject: r.json.subject, body: r.json.body }),
        },
        {
          target: (url) => ({ to, credentials: credentials(url) }),
          badCredentials: (url) => ({ to, credentials: credentials(url, 'whsec-wrong-secret-9') }),
          invalidRecipient: (url) => ({ to, credentials: credentials(url) }),
        },
      ),
  };
}
