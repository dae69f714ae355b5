import { token } from '../shared/token';

export const IdempotencyStore = token<IdempotencyStore>('IdempotencyStore');

/** A finished response as it is replayed: the same status code and the same body bytes. */
export interface StoredResponse {
  statusCode: number;
  body: string;
  contentType: string | null;
}

/** Idempotency keys are unique per organization. */
export interface IdempotencyKeyRef {
  organizationId: string;
  key: string;
}

export interface IdempotencyClaim extends IdempotencyKeyRef {
  /** Fingerprint of the request (method, path, canonical body). */
  requestHash: string;
  /** Records whose expiry is at or before this instant count as absent. */
  now: Date;
  /** When the in-progress marker written by a successful claim lapses. */
  expiresAt: Date;
}

export type ClaimResult =
  | { outcome: 'claimed' }
  | { outcome: 'in-progress' }
  | { outcome: 'finished'; response: StoredResponse }
  | { outcome: 'body-mismatch' };

export interface IdempotencyStore {
  /**
   * Atomic: writes an in-progress marker when the key is unseen or its record has expired, and answers
   * 'claimed'. Otherwise reports the live record: 'body-mismatch' when it was made for another request
   * hash (whatever its state), else 'in-progress' or 'finished'. Of any number of concurrent claims of one
   * key, at most one is 'claimed'.
   */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /**
   * Stores the response of a claimed request until `expiresAt`. Only an in-progress marker with the same
   * request hash is completed; false when there was none (it expired and the key was claimed again).
   */
  complete(ref: IdempotencyKeyRef, requestHash: string, response: StoredResponse, expiresAt: Date): Promise<boolean>;
  /** Deletes every record that expired at or before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
