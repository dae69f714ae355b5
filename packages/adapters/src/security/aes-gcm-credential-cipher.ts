import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialCipher } from '@herald/domain';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * AES-256-GCM over the JSON of a value. Envelope: `v1.<iv>.<tag>.<ciphertext>` (base64url parts),
 * so a later key or algorithm can be told apart by its version prefix.
 */
export class AesGcmCredentialCipher implements CredentialCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`the encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
  }

  encrypt(value: Record<string, unknown>): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(envelope: string): Record<string, unknown> {
    const [version, iv, tag, ciphertext, ...rest] = envelope.split('.');
    if (version !== VERSION || ciphertext === undefined || rest.length) {
      throw new Error('not a credentials envelope of a known version');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    } catch {
      // GCM's tag check: the envelope was altered, or written with another key.
      throw new Error('credentials could not be decrypted: altered, or encrypted with a different key');
    }
    return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  }
}
