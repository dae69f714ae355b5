import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

/** Reads `a.b.c` out of a JSON answer. */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);
}

/**
 * generic-sms: any SMS gateway with a JSON HTTP API. POSTs `{ to, from, content }` to `baseUrl` with
 * the API key in the header named `apiKeyRequestHeader` (and `secretKey` in `secretKeyRequestHeader`),
 * reads the message id at `idPath` (default `id`) of the answer. Through the guarded HTTP client.
 */
export class GenericSmsProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly timeoutMs = 15_000,
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { baseUrl, apiKeyRequestHeader, apiKey, secretKeyRequestHeader, secretKey } = credentials as Credentials & Record<string, string | undefined>;
    if (!baseUrl || !apiKeyRequestHeader || !apiKey) throw new ProviderError('the integration needs baseUrl, apiKeyRequestHeader and apiKey', false);
    const headers: Record<string, string> = { [apiKeyRequestHeader]: apiKey, 'idempotency-key': message.idempotencyKey };
    if (secretKeyRequestHeader && secretKey) headers[secretKeyRequestHeader] = secretKey;
    const answer = await callProvider(this.http, this.timeoutMs, {
      url: baseUrl,
      headers,
      json: { to: message.to.phone, from: message.overrides.from ?? credentials.from, content: message.body, transactionId: message.transactionId },
      secrets: [apiKey, secretKey],
      refusal: 'the SMS gateway refused the message',
    });
    const id = at(answer.body, String(credentials.idPath ?? 'id'));
    return { providerMessageId: id === undefined || id === null ? undefined : String(id), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'generic-sms', through: 'JSON POST to any gateway', create: (kit) => new GenericSmsProvider(kit.http, kit.timeoutMs) }),
];
