import { describe, expect, it } from 'vitest';
import type { ExecutionDetailDraft } from '../../../entities/delivery';
import type { Integration } from '../../../entities/integration';
import { DEFAULT_RETRY_POLICY } from '../../../entities/retry-policy';
import { ProviderError, type DeliveryProvider, type OutboundMessage } from '../../../ports/delivery-provider';
import { InMemorySendRateLimiter } from '../../../testing/in-memory-send-rate-limiter';
import { SendGate } from './send-gate';
import { sendWithFailover, type DeliveryState, type SendOutcome } from './send-with-failover';

const integration = (id: string, providerId = 'sendgrid') => ({ id, identifier: id, providerId, credentials: {}, configurations: {} }) as unknown as Integration;
const policy = { ...DEFAULT_RETRY_POLICY, jitter: 0 };

/** A provider per integration identifier answering from a script: 'ok', 'transient', 'permanent' or 'slow-down'. */
function scripted(scripts: Record<string, string[]>) {
  const calls: string[] = [];
  const provider = (id: string): DeliveryProvider => ({
    async send() {
      calls.push(id);
      const next = scripts[id].shift() ?? 'ok';
      if (next === 'transient') throw new ProviderError('answered 503', true, '{"error":"unavailable"}');
      if (next === 'slow-down') throw new ProviderError('answered 429', true, undefined, { retryAfterMs: 120_000 });
      if (next === 'permanent') throw new ProviderError('answered 401: invalid API key', false, undefined, { code: '401' });
      return { providerMessageId: `${id}-msg` };
    },
  });
  return { calls, provider };
}

/** Runs a job until it stops asking to run again, carrying the state between runs like the job row does. */
async function deliver(candidates: Integration[], scripts: Record<string, string[]>, maxRuns = 10) {
  const { calls, provider } = scripted(scripts);
  // Providers are looked up by providerId; each test integration has its own.
  const registry = { get: (providerId: string) => (providerId === 'unknown' ? null : provider(candidates.find((c) => c.providerId === providerId)!.identifier)) };
  const details: ExecutionDetailDraft[] = [];
  const delays: number[] = [];
  let state: DeliveryState | null = null;
  let outcome: SendOutcome | undefined;
  const now = new Date('2026-01-01T00:00:00Z');
  for (let run = 1; run <= maxRuns; run++) {
    outcome = await sendWithFailover(
      { candidates, messageFor: () => ({}) as OutboundMessage, state, policy, run, now, random: () => 0.5 },
      registry,
      details,
    );
    if (outcome.kind !== 'retry') break;
    delays.push(outcome.rerunAt.getTime() - now.getTime());
    state = outcome.state;
  }
  return { outcome: outcome!, calls, delays, details: details.map((d) => `${d.status}: ${d.detail}`) };
}

describe('sendWithFailover', () => {
  it('503 twice then success: delivered once, three attempts recorded, backing off exponentially', async () => {
    const r = await deliver([integration('a')], { a: ['transient', 'transient', 'ok'] });
    expect(r.outcome).toMatchObject({ kind: 'sent', receipt: { providerMessageId: 'a-msg' } });
    expect(r.calls).toEqual(['a', 'a', 'a']);
    expect(r.delays).toEqual([30_000, 60_000]);
    expect(r.details).toEqual([
      'Failed: provider error: sendgrid (a): answered 503 (attempt 1, retrying in 30 s)',
      'Failed: provider error: sendgrid (a): answered 503 (attempt 2, retrying in 60 s)',
      'Success: sent via sendgrid (a), message id a-msg',
    ]);
  });

  it('a primary that keeps failing hands over to the secondary after failoverAfter attempts', async () => {
    const r = await deliver([integration('a', 'sendgrid'), integration('b', 'resend')], { a: ['transient', 'transient', 'transient'], b: ['ok'] });
    expect(r.outcome).toMatchObject({ kind: 'sent', integration: { id: 'b' } });
    expect(r.calls).toEqual(['a', 'a', 'b']);
    expect(r.details).toEqual([
      'Failed: provider error: sendgrid (a): answered 503 (attempt 1, retrying in 30 s)',
      'Failed: provider error: sendgrid (a): answered 503 (attempt 2, failed 2 times in a row)',
      'Warning: failing over from sendgrid (a) to resend (b)',
      'Success: sent via resend (b), message id b-msg',
    ]);
  });

  it('a permanent error is never retried: alone it fails at once, with a secondary it fails over at once', async () => {
    const alone = await deliver([integration('a')], { a: ['permanent'] });
    expect(alone.outcome.kind).toBe('failed');
    expect(alone.details).toEqual(['Failed: provider error: sendgrid (a): answered 401: invalid API key [401] (attempt 1, permanent, not retried)']);
    const pair = await deliver([integration('a', 'sendgrid'), integration('b', 'resend')], { a: ['permanent'], b: ['transient', 'transient', 'ok'] });
    expect(pair.outcome).toMatchObject({ kind: 'sent', integration: { id: 'b' } });
    // b fails twice; a, refused for good, is never tried again.
    expect(pair.calls).toEqual(['a', 'b', 'b', 'b']);
  });

  it('gives up after maxAttempts sends over every integration', async () => {
    const r = await deliver([integration('a')], { a: Array(10).fill('transient') });
    expect(r.outcome.kind).toBe('failed');
    expect(r.calls).toHaveLength(6);
    expect(r.delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(r.details.at(-1)).toBe('Failed: provider error: sendgrid (a): answered 503 (attempt 6, gave up after 6 attempts)');
  });

  it('waits as long as a 429 Retry-After asks', async () => {
    const r = await deliver([integration('a')], { a: ['slow-down', 'ok'] });
    expect(r.delays).toEqual([120_000]);
  });

  it('a provider this build cannot send through is a permanent failure', async () => {
    const r = await deliver([integration('x', 'unknown')], {});
    expect(r.details).toEqual(['Failed: provider error: unknown (x): unknown cannot send in this version of Herald (attempt 1, permanent, not retried)']);
  });
});

describe('sendWithFailover through a send gate', () => {
  it('an integration over its send rate is queued for its next slot: no send, no attempt counted, no failure', async () => {
    const limited = { ...integration('a'), configurations: { sendRatePerSecond: 1 } } as Integration;
    const gate = new SendGate(new InMemorySendRateLimiter(new Map(), () => 0), async () => undefined, 1_000);
    const { calls, provider } = scripted({ a: ['ok', 'ok'] });
    const registry = { get: () => provider('a') };
    const run = (details: ExecutionDetailDraft[]) =>
      sendWithFailover({ candidates: [limited], messageFor: () => ({}) as OutboundMessage, state: null, policy, run: 1, now: new Date(), random: () => 0.5, gate }, registry, details);
    expect((await run([])).kind).toBe('sent');
    const details: ExecutionDetailDraft[] = [];
    const queued = await run(details);
    expect(calls).toEqual(['a']);
    expect(queued).toMatchObject({ kind: 'retry', state: { sends: 0, streak: 0, excluded: [] } });
    expect(details.map((d) => `${d.status}: ${d.detail}`)).toEqual(['Queued: queued: sendgrid (a) sends at most 1/s, next slot in 1 s']);
  });
});
