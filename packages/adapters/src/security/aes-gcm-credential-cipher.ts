import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DomainError, type CredentialCipher } from '@herald/domain';
import { EncryptionKeyring } from './encryption-keyring';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const UNREADABLE = 'credentials could not be decrypted: altered, or encrypted with a different key';
/** What every caller answers for a value no configured key opens: a 409 naming the cause, never a 500. */
const unreadable = () => new DomainError('CREDENTIALS_UNREADABLE', UNREADABLE);

/** Whether a stored envelope was written with the key whose id is `id` (re-encrypting skips those). */
export const gcmEnvelopePrefix = (id: string) => `v2.${id}.`;

/**
 * AES-256-GCM over the JSON of a value. Envelope: `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url
 * parts), written with the ring's current key and read with the key its id names. Envelopes of
 * `v1.<iv>.<tag>.<ciphertext>`, written before keys had ids, are read with each key of the ring in turn.
 */
export class AesGcmCredentialCipher implements CredentialCipher {
  private readonly ring: EncryptionKeyring;

  constructor(keys: Buffer | EncryptionKeyring) {
    this.ring = EncryptionKeyring.of(keys);
  }

  encrypt(value: Record<string, unknown>): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.ring.current, iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return gcmEnvelopePrefix(this.ring.currentId) + [iv, cipher.getAuthTag(), ciphertext].map((p) => p.toString('base64url')).join('.');
  }

  /** Whether `envelope` was written with the current key. */
  encryptedHere(envelope: string): boolean {
    return envelope.startsWith(gcmEnvelopePrefix(this.ring.currentId));
  }

  decrypt(envelope: string): Record<string, unknown> {
    const parts = envelope.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.ring.key(parts[1]);
      // A key id no configured key has reads as an altered envelope does: the same clear error.
      if (!key) throw unreadable();
      return open(key, parts.slice(2));
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      for (const { key } of this.ring.all()) {
        try {
          return open(key, parts.slice(1));
        } catch {
          // the next key
        }
      }
      throw unreadable();
    }
    throw new DomainError('CREDENTIALS_UNREADABLE', 'credentials could not be decrypted: not an envelope of a known version');
  }
}

function open(key: Buffer, [iv, tag, ciphertext]: string[]): Record<string, unknown> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  } catch {
    // GCM's tag check: the envelope was altered, or written with another key.
    throw unreadable();
  }
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}
