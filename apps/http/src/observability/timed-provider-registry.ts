import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt, ProviderRegistry, SendOptions } from '@herald/domain';

/** Told about every provider call when it ends. */
export type ProviderCallListener = (providerId: string, seconds: number, error: unknown) => void;

/**
 * Wraps each provider of a registry so every send is timed and reported, whatever the channel
 * handler does with the result (retry, failover, delay). A decorator of the port, in the
 * composition root: the domain's handlers stay unaware of it.
 */
export class TimedProviderRegistry implements ProviderRegistry {
  constructor(
    private readonly inner: ProviderRegistry,
    private readonly listener: ProviderCallListener,
  ) {}

  get(providerId: string): DeliveryProvider | null {
    const target = this.inner.get(providerId);
    return target && this.timed(providerId, target);
  }

  private timed(providerId: string, target: DeliveryProvider): DeliveryProvider {
    const listener = this.listener;
    // Anything else the provider offers is reached through the prototype, unchanged.
    return Object.assign(Object.create(target) as DeliveryProvider, {
      async send(message: OutboundMessage, credentials: Credentials, options?: SendOptions): Promise<ProviderReceipt> {
        const started = performance.now();
        try {
          const receipt = await target.send(message, credentials, options);
          listener(providerId, (performance.now() - started) / 1000, null);
          return receipt;
        } catch (error) {
          listener(providerId, (performance.now() - started) / 1000, error);
          throw error;
        }
      },
    });
  }
}
