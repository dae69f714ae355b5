import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import type { ProviderKit } from './provider-definition';
import { callProvider, type ProviderAnswer, type ProviderCall } from './provider-http';

/**
 * A provider over a documented HTTP API, through Herald's guarded client: what every such provider
 * shares, so its file holds only how it maps a message and reads the answer. Build it with the kit:
 * `create: (kit) => new XProvider(kit)`.
 */
export abstract class HttpApiProvider implements DeliveryProvider {
  constructor(private readonly kit: Pick<ProviderKit, 'http' | 'endpoint' | 'timeoutMs'>) {}

  abstract send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt>;

  /** `path` at the operator's endpoint for this id (HERALD_PROVIDER_ENDPOINTS) when set, else at `origin`. */
  protected url(origin: string, path: string): string {
    return `${(this.kit.endpoint ?? origin).replace(/\/+$/, '')}${path}`;
  }

  /** One call within the provider deadline, its failures classified by `callProvider`. */
  protected call(call: ProviderCall): Promise<ProviderAnswer> {
    return callProvider(this.kit.http, this.kit.timeoutMs, call);
  }
}
