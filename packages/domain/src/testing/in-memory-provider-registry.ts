import type { Credentials } from '../entities/integration';
import { ProviderError, type DeliveryProvider, type OutboundMessage, type ProviderReceipt, type ProviderRegistry } from '../ports/delivery-provider';

/**
 * A provider that records what it is asked to send and answers from a script: each send takes the
 * next answer (a receipt, or a ProviderError to throw), a receipt with a message id once the script
 * is spent.
 */
export class RecordingProvider implements DeliveryProvider {
  readonly sent: Array<{ message: OutboundMessage; credentials: Credentials }> = [];

  constructor(
    private readonly name: string,
    readonly script: Array<ProviderReceipt | ProviderError> = [],
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    this.sent.push(structuredClone({ message, credentials }));
    const answer = this.script.shift() ?? { providerMessageId: `${this.name}-${this.sent.length}` };
    if (answer instanceof ProviderError) throw answer;
    return answer;
  }
}

/** The ProviderRegistry double: the providers it is given, by providerId; `provider-registry-contract.ts` holds it to the static registry's behaviour. */
export class InMemoryProviderRegistry implements ProviderRegistry {
  readonly providers = new Map<string, DeliveryProvider>();

  constructor(providers: Record<string, DeliveryProvider> = {}) {
    for (const [id, provider] of Object.entries(providers)) this.providers.set(id, provider);
  }

  get(providerId: string): DeliveryProvider | null {
    return this.providers.get(providerId) ?? null;
  }
}
