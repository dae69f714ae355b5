import { describe, expect, it } from 'vitest';
import type { SendRateLimiter } from '../../../ports/send-rate-limiter';
import { InMemorySendRateLimiter } from '../../../testing/in-memory-send-rate-limiter';
import { SendGate } from './send-gate';

/** Counts reservations, so a test can see that an unlimited integration never reaches the (SQL) limiter. */
function counting(inner: SendRateLimiter) {
  const calls: string[] = [];
  return { calls, limiter: { reserve: (id: string, rate: number, horizon: number) => (calls.push(id), inner.reserve(id, rate, horizon)) } };
}

const released = (turn: Awaited<ReturnType<SendGate['enter']>>) => {
  if ('retryInMs' in turn) throw new Error('expected a turn');
  return turn;
};

describe('SendGate', () => {
  it('lets an integration without a rate or connection bound through without asking the limiter', async () => {
    const { calls, limiter } = counting(new InMemorySendRateLimiter());
    const gate = new SendGate(limiter);
    const turns = await Promise.all(Array.from({ length: 50 }, () => gate.enter({ id: 'free', configurations: {} })));
    expect(turns.every((t) => 'release' in t)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('waits for each rate slot: at 4/s the fourth send starts 750 ms after the first', async () => {
    let clock = 0;
    const slept: number[] = [];
    const sleep = async (ms: number) => void (slept.push(ms), (clock += ms));
    const gate = new SendGate(new InMemorySendRateLimiter(new Map(), () => clock), sleep, undefined, () => clock);
    for (let i = 0; i < 4; i++) released(await gate.enter({ id: 'rated', configurations: { sendRatePerSecond: 4 } })).release();
    expect(slept).toEqual([250, 250, 250]);
    expect(clock).toBe(750);
    clock = 2_000;
    released(await gate.enter({ id: 'rated', configurations: { sendRatePerSecond: 4 } }));
    expect(slept).toEqual([250, 250, 250]);
  });

  it('spaces sends that missed their slots waiting for a connection: at 4/s, 250 ms apart, not all at once', async () => {
    let clock = 0;
    const slept: number[] = [];
    const gate = new SendGate(new InMemorySendRateLimiter(new Map(), () => 0), async (ms) => void slept.push(ms), undefined, () => clock);
    const integration = { id: 'busy', configurations: { sendRatePerSecond: 4, maxConcurrentSends: 1 } };
    const first = released(await gate.enter(integration));
    const rest = Array.from({ length: 3 }, () => gate.enter(integration).then((t) => released(t).release()));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(slept).toEqual([250, 500, 750]); // their slots
    // The first send held the only connection for 2 s: every later slot has passed.
    clock = 2_000;
    first.release();
    await Promise.all(rest);
    expect(slept.slice(3)).toEqual([250, 500]);
  });

  it('starts a send only when the last second has room: at 2/s, a third send waits for one in flight to end, then a second more', async () => {
    let clock = 0;
    const gate = new SendGate(new InMemorySendRateLimiter(new Map(), () => clock), async (ms) => void (clock += ms), undefined, () => clock);
    const integration = { id: 'slow-server', configurations: { sendRatePerSecond: 2 } };
    const first = released(await gate.enter(integration));
    released(await gate.enter(integration));
    expect(clock).toBe(500);
    let startedAt: number | undefined;
    const third = gate.enter(integration).then((t) => ((startedAt = clock), released(t)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Its slot (1 s) has come, but both earlier sends are still in flight: the server may take them
    // in the same second as the third.
    expect(clock).toBe(1_000);
    expect(startedAt).toBeUndefined();
    clock = 1_200;
    first.release();
    await third;
    // The first may have arrived just before it ended, at 1.2 s.
    expect(startedAt).toBe(2_200);
  });

  it('queues a send whose slot is past the horizon instead of waiting or failing it', async () => {
    const gate = new SendGate(new InMemorySendRateLimiter(new Map(), () => 0), async () => undefined, 1_000);
    const turns = [];
    for (let i = 0; i < 3; i++) turns.push(await gate.enter({ id: 'slow', configurations: { sendRatePerSecond: 1 } }));
    expect('release' in turns[0]).toBe(true);
    expect(turns[1]).toEqual({ retryInMs: 1_000 });
    expect(turns[2]).toEqual({ retryInMs: 1_000 });
  });

  it('keeps at most maxConcurrentSends in flight and hands a released permit to the next send', async () => {
    const gate = new SendGate();
    const integration = { id: 'pool', configurations: { maxConcurrentSends: 2 } };
    const first = released(await gate.enter(integration));
    const second = released(await gate.enter(integration));
    let third: (() => void) | undefined;
    const waiting = gate.enter(integration).then((t) => (third = released(t).release));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(third).toBeUndefined();
    first.release();
    first.release(); // releasing twice frees one permit only
    await waiting;
    expect(third).toBeDefined();
    let fourth = false;
    void gate.enter(integration).then(() => (fourth = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fourth).toBe(false);
    second.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fourth).toBe(true);
  });
});
