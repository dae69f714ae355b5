import type { Integration } from '../../../entities/integration';
import type { SendRateLimiter } from '../../../ports/send-rate-limiter';

/** How far ahead a send may hold a rate slot while its job waits in memory; later ones are queued as delayed jobs. */
export const SLOT_HORIZON_MS = 30_000;

export type Turn = { release(): void } | { retryInMs: number };

/** A counting semaphore: `take` resolves when fewer than `limit` holders hold it. */
class Permits {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(public limit: number) {}

  async take(): Promise<() => void> {
    if (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next(); // the permit passes straight to the next waiter
      else this.held--;
    };
  }
}

/**
 * Keeps an integration's sends within its configurations: `sendRatePerSecond` through the shared rate
 * limiter (every process), and `maxConcurrentSends` in flight at once in this process. A send whose
 * rate slot is beyond the horizon does not wait: the caller queues it (`retryInMs`), never fails it.
 */
export class SendGate {
  private readonly permits = new Map<string, Permits>();

  constructor(
    private readonly limiter?: SendRateLimiter,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly horizonMs = SLOT_HORIZON_MS,
  ) {}

  async enter(integration: Pick<Integration, 'id' | 'configurations'>): Promise<Turn> {
    const { sendRatePerSecond: rate, maxConcurrentSends: connections } = integration.configurations;
    if (rate && this.limiter) {
      const slot = await this.limiter.reserve(integration.id, rate, this.horizonMs);
      if ('retryInMs' in slot) return slot;
      // Wait for the slot first, then for a connection: a connection never idles through the wait.
      if (slot.waitMs > 0) await this.sleep(slot.waitMs);
    }
    if (!connections) return { release: () => undefined };
    let permits = this.permits.get(integration.id);
    if (!permits) this.permits.set(integration.id, (permits = new Permits(connections)));
    permits.limit = connections;
    return { release: await permits.take() };
  }
}
