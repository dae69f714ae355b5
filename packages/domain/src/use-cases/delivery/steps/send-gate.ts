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
 * The sends of one integration in this process that a receiver may still count in its current second:
 * those in flight and those that ended less than a second ago. A receiver takes an email somewhere
 * between the send's start and its end, so a send that starts only while fewer than `rate` of these
 * remain keeps every 1-second window at the receiver within the rate, whatever the latency did (a
 * stall, or a pool that releases queued emails together, bunches arrivals even when starts are even).
 */
class Window {
  private inFlight = 0;
  private readonly ended: number[] = [];
  private readonly waiting: Array<() => void> = [];

  /** How long a send starting now must wait before it may start; 0: it starts (and counts) now. */
  waitMs(perSecond: number, now: number): number | 'release' {
    while (this.ended.length && this.ended[0] <= now - 1000) this.ended.shift();
    if (this.inFlight + this.ended.length < perSecond) {
      this.inFlight++;
      return 0;
    }
    // Full: the oldest ended send leaves the window first, or else a send in flight must end.
    return this.ended.length ? this.ended[0] + 1000 - now : 'release';
  }

  released(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  end(now: number): void {
    this.inFlight--;
    this.ended.push(now);
    this.waiting.splice(0).forEach((wake) => wake());
  }
}

/**
 * Keeps an integration's sends within its configurations: `sendRatePerSecond` through the shared rate
 * limiter (every process), and `maxConcurrentSends` in flight at once in this process. A send whose
 * rate slot is beyond the horizon does not wait: the caller queues it (`retryInMs`), never fails it.
 * Within a process, sends of a rate-limited integration also start at least 1/rate apart (Pace), and
 * only while the receiver's current second has room (Window).
 */
export class SendGate {
  private readonly permits = new Map<string, Permits>();
  private readonly paces = new Map<string, Pace>();
  private readonly windows = new Map<string, Window>();

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
      const window = await this.room(integration.id, rate);
      return { release: () => (release(), window.end(this.now())) };
    }
    return { release };
  }

  /** Waits until the integration's window has room for one more send in this second, and takes it. */
  private async room(integrationId: string, rate: number): Promise<Window> {
    let window = this.windows.get(integrationId);
    if (!window) this.windows.set(integrationId, (window = new Window()));
    for (;;) {
      const wait = window.waitMs(rate, this.now());
      if (wait === 0) return window;
      await (wait === 'release' ? window.released() : this.sleep(wait));
    }
  }

  private permit(integrationId: string, connections: number): Promise<() => void> {
    let permits = this.permits.get(integrationId);
    if (!permits) this.permits.set(integrationId, (permits = new Permits(connections)));
    permits.limit = connections;
    return permits.take();
  }
}
