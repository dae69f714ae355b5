import { DomainError } from '../../errors';
import type { IdempotencyStore, StoredResponse } from '../../ports/idempotency-store';
import { systemClock, type Clock } from '../../shared/clock';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long an in-progress marker holds a key: a crashed request blocks its key at most this long. */
export const IDEMPOTENCY_IN_PROGRESS_TTL_MS = 5 * 60_000;
/** How long a finished response (success or error) is replayed. */
export const IDEMPOTENCY_RESPONSE_TTL_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_RETRY_AFTER_SECONDS = 1;

export interface IdempotentRequest {
  organizationId: string;
  key: string;
  method: string;
  /** Path with its query string. */
  path: string;
  /** The raw body text; empty when there is none. */
  body: string;
}

export type IdempotencyDecision =
  /** Run the request, then hand its response to `complete` (also when it failed). */
  | { outcome: 'proceed'; complete(response: StoredResponse): Promise<void> }
  /** Answer with the stored response instead of running the request. */
  | { outcome: 'replay'; response: StoredResponse }
  /** Answer with this error; `retryAfterSeconds` when the client should retry later. */
  | { outcome: 'reject'; error: DomainError; retryAfterSeconds?: number };

/**
 * Decides what a POST or PATCH carrying an idempotency key does: run (the key is claimed atomically, so
 * of two racing requests only one runs), replay the finished response, or be refused.
 */
export class ClaimIdempotencyKey {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock = systemClock,
  ) {}

  async execute(request: IdempotentRequest): Promise<IdempotencyDecision> {
    const { organizationId, key } = request;
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      const message = `Idempotency key exceeds the maximum allowed length of ${IDEMPOTENCY_KEY_MAX_LENGTH} characters (it has ${key.length})`;
      return { outcome: 'reject', error: new DomainError('IDEMPOTENCY_KEY_TOO_LONG', message) };
    }
    const requestHash = requestFingerprint(request);
    const now = this.clock.now();
    const result = await this.store.claim({ organizationId, key, requestHash, now, expiresAt: after(now, IDEMPOTENCY_IN_PROGRESS_TTL_MS) });
    switch (result.outcome) {
      case 'claimed':
        return {
          outcome: 'proceed',
          complete: async (response) => {
            await this.store.complete({ organizationId, key }, requestHash, response, after(this.clock.now(), IDEMPOTENCY_RESPONSE_TTL_MS));
          },
        };
      case 'finished':
        return { outcome: 'replay', response: result.response };
      case 'in-progress': {
        const message = `Request with idempotency key '${key}' is currently being processed. Please retry after ${IDEMPOTENCY_RETRY_AFTER_SECONDS} second`;
        return { outcome: 'reject', error: new DomainError('IDEMPOTENCY_KEY_IN_PROGRESS', message), retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SECONDS };
      }
      case 'body-mismatch': {
        const message = `Request with idempotency key '${key}' is being reused for a different body`;
        return { outcome: 'reject', error: new DomainError('IDEMPOTENCY_KEY_BODY_MISMATCH', message) };
      }
    }
  }
}

function after(instant: Date, ms: number): Date {
  return new Date(instant.getTime() + ms);
}
