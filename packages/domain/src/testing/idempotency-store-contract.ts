import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdempotencyStore, StoredResponse } from '../ports/idempotency-store';

const MINUTE = 60_000;
const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
const response: StoredResponse = { statusCode: 201, body: '{"data":{"id":"é-1"}}', contentType: 'application/json' };

/**
 * The behaviour every IdempotencyStore must have. Run against the in-memory fake and the Prisma adapter,
 * so the fake the domain tests rely on behaves as the real store does.
 */
export function idempotencyStoreContract(name: string, makeStore: () => IdempotencyStore | Promise<IdempotencyStore>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    const ref = () => ({ organizationId: randomUUID(), key: `key-${randomUUID()}` });
    const claimAt = (store: IdempotencyStore, r: { organizationId: string; key: string }, requestHash: string, minutes: number, ttlMinutes = 5) =>
      store.claim({ ...r, requestHash, now: at(minutes), expiresAt: at(minutes + ttlMinutes) });

    it('claims an unseen key once; the same request then sees it in progress', async () => {
      const store = await makeStore();
      const r = ref();
      expect(await claimAt(store, r, 'h1', 0)).toEqual({ outcome: 'claimed' });
      expect(await claimAt(store, r, 'h1', 1)).toEqual({ outcome: 'in-progress' });
    });

    it('reports a different request hash as a body mismatch, in progress or finished', async () => {
      const store = await makeStore();
      const r = ref();
      await claimAt(store, r, 'h1', 0);
      expect(await claimAt(store, r, 'h2', 1)).toEqual({ outcome: 'body-mismatch' });
      await store.complete(r, 'h1', response, at(60));
      expect(await claimAt(store, r, 'h2', 2)).toEqual({ outcome: 'body-mismatch' });
    });

    it('returns the completed response exactly as stored, until it expires', async () => {
      const store = await makeStore();
      const r = ref();
      await claimAt(store, r, 'h1', 0);
      expect(await store.complete(r, 'h1', response, at(24 * 60))).toBe(true);
      expect(await claimAt(store, r, 'h1', 10)).toEqual({ outcome: 'finished', response });
      expect(await claimAt(store, r, 'h1', 24 * 60 - 1)).toEqual({ outcome: 'finished', response });
      expect(await claimAt(store, r, 'h2', 24 * 60)).toEqual({ outcome: 'claimed' });
    });

    it('lets an expired in-progress marker be claimed again, with any body', async () => {
      const store = await makeStore();
      const r = ref();
      await claimAt(store, r, 'h1', 0);
      expect(await claimAt(store, r, 'h2', 5)).toEqual({ outcome: 'claimed' });
      // The first request finishing late does not overwrite the second one's record.
      expect(await store.complete(r, 'h1', response, at(60))).toBe(false);
      expect(await claimAt(store, r, 'h2', 6)).toEqual({ outcome: 'in-progress' });
    });

    it('completes only once', async () => {
      const store = await makeStore();
      const r = ref();
      await claimAt(store, r, 'h1', 0);
      expect(await store.complete(r, 'h1', response, at(60))).toBe(true);
      expect(await store.complete(r, 'h1', { ...response, statusCode: 500 }, at(60))).toBe(false);
      expect(await claimAt(store, r, 'h1', 1)).toEqual({ outcome: 'finished', response });
    });

    it('scopes keys per organization', async () => {
      const store = await makeStore();
      const r = ref();
      await claimAt(store, r, 'h1', 0);
      expect(await claimAt(store, { ...r, organizationId: randomUUID() }, 'h2', 0)).toEqual({ outcome: 'claimed' });
    });

    it('gives exactly one of many concurrent claims of a key', async () => {
      const store = await makeStore();
      const r = ref();
      const results = await Promise.all(Array.from({ length: 50 }, () => claimAt(store, r, 'h1', 0)));
      expect(results.filter((x) => x.outcome === 'claimed')).toHaveLength(1);
      expect(results.filter((x) => x.outcome === 'in-progress')).toHaveLength(49);
    });

    it('purges expired records only; a purged key is claimable', async () => {
      const store = await makeStore();
      const [expired, live] = [ref(), ref()];
      await claimAt(store, expired, 'h1', 0, 5);
      await claimAt(store, live, 'h1', 0, 24 * 60);
      expect(await store.purgeExpired(at(5))).toBeGreaterThanOrEqual(1);
      expect(await store.purgeExpired(at(5))).toBe(0);
      expect(await claimAt(store, live, 'h1', 6)).toEqual({ outcome: 'in-progress' });
      expect(await claimAt(store, expired, 'h2', 6)).toEqual({ outcome: 'claimed' });
    });
  });
}
