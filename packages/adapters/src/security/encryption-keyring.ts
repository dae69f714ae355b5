import { hkdfSync } from 'node:crypto';

/**
 * The installation's keys: the current one (HERALD_ENCRYPTION_KEY), which every write uses, and the
 * previous ones (HERALD_ENCRYPTION_KEYS_PREVIOUS) that values written before a rotation are still
 * read with. Each value stores the id of the key that wrote it, so a read tries one key, not all.
 */
export class EncryptionKeyring {
  readonly current: Buffer;
  readonly currentId: string;
  private readonly byId: ReadonlyMap<string, Buffer>;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error(`an encryption key must be 32 bytes, got ${key.length}`);
    }
    this.current = current;
    this.currentId = keyId(current);
    this.byId = new Map([...previous.map((k) => [keyId(k), k] as const), [this.currentId, current]]);
  }

  /** A Buffer is a ring of that one key (tests, and callers that never rotate). */
  static of(keys: Buffer | EncryptionKeyring): EncryptionKeyring {
    return keys instanceof EncryptionKeyring ? keys : new EncryptionKeyring(keys);
  }

  /** The key with this id, or undefined when it is in no configured slot (dropped, or never ours). */
  key(id: string): Buffer | undefined {
    return this.byId.get(id);
  }

  /** Every key, the current one first, with its id. */
  all(): Array<{ id: string; key: Buffer }> {
    return [{ id: this.currentId, key: this.current }, ...[...this.byId].filter(([id]) => id !== this.currentId).map(([id, key]) => ({ id, key }))];
  }
}

/**
 * A key's id: 6 bytes derived from it with HKDF (one-way, so the id says nothing of the key), in
 * base64url. The derivation is the one sealed values used before keyrings, so their ids still match.
 */
export function keyId(key: Buffer): string {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'herald sealed values: key id', 6)).toString('base64url');
}
