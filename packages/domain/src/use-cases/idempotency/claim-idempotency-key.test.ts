import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../ports/idempotency-store';
import { InMemoryIdempotencyStore } from '../../testing/in-memory-idempotency-store';
import { ClaimIdempotencyKey, IDEMPOTENCY_IN_PROGRESS_TTL_MS, IDEMPOTENCY_RESPONSE_TTL_MS, type IdempotentRequest } from './claim-idempotency-key';

const MINUTE = 60_000;

function setup() {
  let now = new Date('2026-03-01T12:00:00.000Z').getTime();
  const store = new InMemoryIdempotencyStore();
  const claim = new ClaimIdempotencyKey(store, { now: () => new Date(now) });
  return { store, claim, advance: (ms: number) => void (now += ms) };
}

const request: IdempotentRequest = { organizationId: 'org-1', key: 'k-1', method: 'POST', path: '/v2/subscribers', body: '{"subscriberId":"a","email":"a@x.io"}' };
const created: StoredResponse = { statusCode: 201, body: '{"data":{"subscriberId":"a"}}', contentType: 'application/json' };

async function proceed(claim: ClaimIdempotencyKey, req: IdempotentRequest) {
  const decision = await claim.execute(req);
  if (decision.outcome !== 'proceed') throw new Error(`expected proceed, got ${decision.outcome}`);
  return decision;
}

describe('ClaimIdempotencyKey', () => {
  it('lets an unseen key run, then replays its response for the same body in any key order', async () => {
    const { claim } = setup();
    await (await proceed(claim, request)).complete(created);
    const again = await claim.execute({ ...request, body: '{ "email": "a@x.io", "subscriberId": "a" }' });
    expect(again).toEqual({ outcome: 'replay', response: created });
  });

  it('caches error responses like successes', async () => {
    const { claim } = setup();
    const failed: StoredResponse = { statusCode: 404, body: '{"statusCode":404,"message":"Subscriber not found"}', contentType: 'application/json' };
    await (await proceed(claim, request)).complete(failed);
    expect(await claim.execute(request)).toEqual({ outcome: 'replay', response: failed });
  });

  it('refuses the same key while the first request runs: 409 code with a 1 second retry', async () => {
    const { claim } = setup();
    await proceed(claim, request);
    const decision = await claim.execute(request);
    expect(decision).toMatchObject({ outcome: 'reject', retryAfterSeconds: 1, error: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } });
    if (decision.outcome === 'reject') expect(decision.error.message).toMatch(/currently being processed.*retry after 1 second/i);
  });

  it.each([
    ['while in progress', false],
    ['once finished', true],
  ])('refuses the same key with a different body %s', async (_when, finish) => {
    const { claim } = setup();
    const first = await proceed(claim, request);
    if (finish) await first.complete(created);
    const decision = await claim.execute({ ...request, body: '{"subscriberId":"b"}' });
    expect(decision).toMatchObject({ outcome: 'reject', error: { code: 'IDEMPOTENCY_KEY_BODY_MISMATCH' } });
    if (decision.outcome === 'reject') {
      expect(decision.retryAfterSeconds).toBeUndefined();
      expect(decision.error.message).toMatch(/reused for a different body/);
    }
  });

  it('treats the same body on another path as a different request', async () => {
    const { claim } = setup();
    await (await proceed(claim, request)).complete(created);
    expect(await claim.execute({ ...request, path: '/v1/subscribers/bulk' })).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_BODY_MISMATCH' } });
  });

  it.each([
    [255, 'proceed'],
    [256, 'reject'],
  ])('a key of %i characters: %s', async (length, outcome) => {
    const { claim, store } = setup();
    const decision = await claim.execute({ ...request, key: 'k'.repeat(length) });
    expect(decision.outcome).toBe(outcome);
    if (decision.outcome === 'reject') {
      expect(decision.error.code).toBe('IDEMPOTENCY_KEY_TOO_LONG');
      expect(decision.error.message).toMatch(/exceeds the maximum allowed length of 255 characters/);
      expect(store.rows.size).toBe(0);
    }
  });

  it('frees a key whose request never finished after 5 minutes', async () => {
    const { claim, advance } = setup();
    await proceed(claim, request);
    advance(IDEMPOTENCY_IN_PROGRESS_TTL_MS - 1);
    expect((await claim.execute(request)).outcome).toBe('reject');
    advance(1);
    expect((await claim.execute({ ...request, body: '{}' })).outcome).toBe('proceed');
  });

  it('replays a finished response for 24 hours from completion, then lets the key be reused', async () => {
    const { claim, advance } = setup();
    const first = await proceed(claim, request);
    advance(3 * MINUTE);
    await first.complete(created);
    advance(IDEMPOTENCY_RESPONSE_TTL_MS - 1);
    expect((await claim.execute(request)).outcome).toBe('replay');
    advance(1);
    expect((await claim.execute({ ...request, body: '{"subscriberId":"c"}' })).outcome).toBe('proceed');
  });

  it('scopes keys per organization', async () => {
    const { claim } = setup();
    await proceed(claim, request);
    expect((await claim.execute({ ...request, organizationId: 'org-2', body: '{}' })).outcome).toBe('proceed');
  });
});
