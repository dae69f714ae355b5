import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt, SendOptions } from '@herald/domain';
import { ProviderError } from '@herald/domain';

// Past the provider's own timeouts, so an SDK's own (more precise) failure wins when it has one.
const GRACE_MS = 1_000;

/**
 * The provider with a deadline on every send, for SDKs without a timeout of their own: a send still
 * unanswered after `timeoutMs` (plus a grace) fails as transient, as a timeout is. The call itself
 * is abandoned, not cancelled: providers that take an idempotency key get the job id, so the retry
 * cannot send twice there.
 */
export function withDeadline(provider: DeliveryProvider, timeoutMs: number): DeliveryProvider {
  return {
    send(message: OutboundMessage, credentials: Credentials, options?: SendOptions): Promise<ProviderReceipt> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProviderError(`no answer from the provider within ${timeoutMs} ms`, true, undefined, { code: 'ETIMEDOUT' })), timeoutMs + GRACE_MS);
      });
      return Promise.race([provider.send(message, credentials, options), deadline]).finally(() => clearTimeout(timer));
    },
  };
}
