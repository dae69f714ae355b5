import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { OutboundRefusedError, ProviderError } from '@herald/domain';
import { httpFailure, networkFailure, redact } from './provider-failure';

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
  constructor(private readonly http: HttpClient) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { baseUrl, apiKeyRequestHeader, apiKey, secretKeyRequestHeader, secretKey } = credentials as Credentials & Record<string, string | undefined>;
    if (!baseUrl || !apiKeyRequestHeader || !apiKey) throw new ProviderError('the integration needs baseUrl, apiKeyRequestHeader and apiKey', false);
    const secrets = [apiKey, secretKey];
    const headers: Record<string, string> = { 'content-type': 'application/json', [apiKeyRequestHeader]: apiKey, 'idempotency-key': message.idempotencyKey };
    if (secretKeyRequestHeader && secretKey) headers[secretKeyRequestHeader] = secretKey;
    const body = JSON.stringify({ to: message.to.phone, from: message.overrides.from ?? credentials.from, content: message.body, transactionId: message.transactionId });
    let response;
    try {
      response = await this.http.request({ method: 'POST', url: baseUrl, headers, body, timeoutMs: 15_000 });
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new ProviderError(error.message, false);
      throw networkFailure(error, secrets);
    }
    if (response.status >= 300) throw httpFailure(response.status, 'the SMS gateway refused the message', response.body, secrets, response.headers['retry-after']);
    let id: unknown;
    try {
      id = at(JSON.parse(response.body), String(credentials.idPath ?? 'id'));
    } catch {
      id = undefined;
    }
    return { providerMessageId: id === undefined || id === null ? undefined : String(id), raw: redact(response.body, secrets) };
  }
}
