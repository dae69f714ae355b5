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
 * The start times of one integration's sends in this process, at least 1/rate apart. Rate slots alone
 * do not keep a second under the rate: sends that missed their slots (a connection was busy, the
 * process stalled) would otherwise all start at once, on top of the on-time ones.
 */
class Pace {
  private next = -Infinity;

  /** How long the send starting now waits; it takes the next start. */
  delay(perSecond: number, now: number): number {
    const at = Math.max(now, this.next);
    this.next = at + 1000 / perSecond;
    return at - now;
  }
}

/**
 * Keeps an integration's sends within its configurations: `sendRatePerSecond` through the shared rate
 * limiter (every process), and `maxConcurrentSends` in flight at once in this process. A send whose
 * rate slot is beyond the horizon does not wait: the caller queues it (`retryInMs`), never fails it.
 * Within a process, sends of a rate-limited integration also start at least 1/rate apart (Pace).
 */
export class SendGate {
  private readonly permits = new Map<string, Permits>();
  private readonly paces = new Map<string, Pace>();

  constructor(
    private readonly limiter?: SendRateLimiter,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly horizonMs = SLOT_HORIZON_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async enter(integration: Pick<Integration, 'id' | 'configurations'>): Promise<Turn> {
    const { sendRatePerSecond: rate, maxConcurrentSends: connections } = integration.configurations;
    if (rate && this.limiter) {
      const slot = await this.limiter.reserve(integration.id, rate, this.horizonMs);
      if ('retryInMs' in slot) return slot;
      // Wait for the slot first, then for a connection: a connection never idles through the wait.
      if (slot.waitMs > 0) await this.sleep(slot.waitMs);
    }
    const release = connections ? await this.permit(integration.id, connections) : () => undefined;
    if (rate && this.limiter) {
      let pace = this.paces.get(integration.id);
      if (!pace) this.paces.set(integration.id, (pace = new Pace()));
      const late = pace.delay(rate, this.now());
      if (late > 0) await this.sleep(late);
    }
    return { release };
  }

  private permit(integrationId: string, connections: number): Promise<() => void> {
    let permits = this.permits.get(integrationId);
    if (!permits) this.permits.set(integrationId, (permits = new Permits(connections)));
    permits.limit = connections;
    return permits.take();
  }
}
