import type { SendRateLimiter, SendSlot } from '../ports/send-rate-limiter';

/**
 * The SendRateLimiter double: the next free slot of each integration in memory, shared by every
 * limiter made on the same `slots` map (the processes of one installation).
 */
export class InMemorySendRateLimiter implements SendRateLimiter {
  constructor(
    private readonly slots = new Map<string, number>(),
    private readonly now: () => number = Date.now,
  ) {}

  async reserve(integrationId: string, perSecond: number, horizonMs: number): Promise<SendSlot> {
    const now = this.now();
    const start = Math.max(this.slots.get(integrationId) ?? now, now);
    if (start - now >= horizonMs) return { retryInMs: start - now };
    this.slots.set(integrationId, start + 1000 / perSecond);
    return { waitMs: start - now };
  }
}
