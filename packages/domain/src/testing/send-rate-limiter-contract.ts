import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SendRateLimiter } from '../ports/send-rate-limiter';

/** Reserves and tells when the slot starts on this clock (the wait counts from the answer). */
async function startOf(limiter: SendRateLimiter, id: string, perSecond: number): Promise<number> {
  const slot = await limiter.reserve(id, perSecond, 60_000);
  return Date.now() + ('waitMs' in slot ? slot.waitMs : NaN);
}

/**
 * The behaviour every SendRateLimiter has; run against the in-memory double and PostgreSQL.
 * `setup` gives limiters of one installation (processes sharing the store); each test uses its own integrations.
 */
export function sendRateLimiterContract(name: string, setup: () => Promise<{ processes: [SendRateLimiter, SendRateLimiter] }>): void {
  describe(`SendRateLimiter contract: ${name}`, () => {
    it('gives the first slot now and the next ones 1/rate apart, each to one send', async () => {
      const { processes: [limiter] } = await setup();
      const id = randomUUID();
      const at = Date.now();
      const starts = (await Promise.all(Array.from({ length: 10 }, () => startOf(limiter, id, 100)))).sort((a, b) => a - b);
      expect(starts[0] - at).toBeLessThan(250);
      // 10 ms apart, less the few ms two answers can differ in how long they took to arrive.
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(7);
      expect(starts.at(-1)! - starts[0]).toBeLessThan(90 + 250);
    });

    it('spaces the slots of two processes as one: never more than the rate', async () => {
      const { processes: [a, b] } = await setup();
      const id = randomUUID();
      const starts = (await Promise.all(Array.from({ length: 40 }, (_, i) => startOf(i % 2 ? a : b, id, 200)))).sort((x, y) => x - y);
      // 40 sends at 200/s span at least 39 gaps of 5 ms, whichever process reserved them, less what two
      // answers can differ in how long they took to arrive on a busy machine; twice the rate would span ~97 ms.
      expect(starts.at(-1)! - starts[0]).toBeGreaterThanOrEqual(39 * 5 - 25);
    });

    it('reserves nothing past the horizon and says when the next slot is', async () => {
      const { processes: [limiter] } = await setup();
      const id = randomUUID();
      const slots = [];
      for (let i = 0; i < 6; i++) slots.push(await limiter.reserve(id, 2, 1_750));
      // At 2/s a 1.75 s horizon holds the slots at 0, 0.5, 1 and 1.5 s; the fifth (2 s) and sixth wait their turn.
      expect(slots.slice(0, 4).every((s) => 'waitMs' in s)).toBe(true);
      expect(slots[4]).toEqual({ retryInMs: expect.any(Number) });
      expect((slots[4] as { retryInMs: number }).retryInMs).toBeGreaterThan(1_750);
      expect((slots[5] as { retryInMs: number }).retryInMs).toBeLessThanOrEqual((slots[4] as { retryInMs: number }).retryInMs);
    });

    it('keeps integrations apart', async () => {
      const { processes: [limiter] } = await setup();
      const [x, y] = [randomUUID(), randomUUID()];
      await limiter.reserve(x, 1, 60_000);
      const other = await limiter.reserve(y, 1, 60_000);
      expect(other).toEqual({ waitMs: expect.any(Number) });
      expect((other as { waitMs: number }).waitMs).toBeLessThan(250);
    });
  });
}
