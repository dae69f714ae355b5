import type { ClaimResult, IdempotencyClaim, IdempotencyKeyRef, IdempotencyStore, StoredResponse } from '../ports/idempotency-store';

interface Row {
  requestHash: string;
  response: StoredResponse | null;
  expiresAt: Date;
}

/** A fake for domain tests; the store contract test runs against it and the Prisma adapter alike. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly rows = new Map<string, Row>();

  private id({ organizationId, key }: IdempotencyKeyRef) {
    return `${organizationId}\u0000${key}`;
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    const id = this.id(claim);
    const row = this.rows.get(id);
    if (!row || row.expiresAt <= claim.now) {
      this.rows.set(id, { requestHash: claim.requestHash, response: null, expiresAt: claim.expiresAt });
      return { outcome: 'claimed' };
    }
    if (row.requestHash !== claim.requestHash) return { outcome: 'body-mismatch' };
    return row.response ? { outcome: 'finished', response: { ...row.response } } : { outcome: 'in-progress' };
  }

  async complete(ref: IdempotencyKeyRef, requestHash: string, response: StoredResponse, expiresAt: Date): Promise<boolean> {
    const row = this.rows.get(this.id(ref));
    if (!row || row.response || row.requestHash !== requestHash) return false;
    Object.assign(row, { response: { ...response }, expiresAt });
    return true;
  }

  async purgeExpired(now: Date): Promise<number> {
    let purged = 0;
    for (const [id, row] of this.rows) {
      if (row.expiresAt <= now && this.rows.delete(id)) purged++;
    }
    return purged;
  }
}
