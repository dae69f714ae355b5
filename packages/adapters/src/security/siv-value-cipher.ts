import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** What every envelope starts with (SQL tells sealed values from plain ones by it). */
export const SEALED_PREFIX = 'hsv1.';
const PREFIX = SEALED_PREFIX;
const SIV_BYTES = 16;

/** A sealed value that cannot be opened: altered in the database, or sealed with another key. */
export class SealedValueError extends Error {}

/**
 * Deterministic authenticated encryption of short strings (device tokens, webhook URLs), so that
 * SQL can still compare them: equal values seal equally under one key. A reader of the database learns
 * which rows share a value and how long each value is, never the value.
 *
 * The SIV construction (RFC 5297's shape, with HMAC-SHA256 as its PRF): the IV is the MAC of the
 * value, truncated to 128 bits, and AES-256-CTR encrypts under it; opening decrypts and checks that
 * the MAC of the result is the IV, so an altered envelope fails. node:crypto has every part (HKDF,
 * HMAC, AES-CTR, a constant-time compare) and no AES-SIV mode, and a dependency for the 20 lines
 * that join them would add code to trust rather than remove it.
 *
 * Both keys are derived with HKDF from the installation's key, apart from the one the random
 * credentials cipher uses. Envelope: `hsv1.<key id>.<base64url(iv || ciphertext)>`; the key id
 * (derived, not secret) tells a value sealed with another key from an altered one.
 */
export class SivValueCipher {
  private readonly encKey: Buffer;
  private readonly macKey: Buffer;
  private readonly keyId: string;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error(`the encryption key must be 32 bytes, got ${key.length}`);
    const derive = (info: string, bytes: number) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `herald sealed values: ${info}`, bytes));
    this.encKey = derive('aes-256-ctr', 32);
    this.macKey = derive('hmac-sha256', 32);
    this.keyId = derive('key id', 6).toString('base64url');
  }

  /** Whether a stored string is an envelope (of any key); anything else is a value written before sealing. */
  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(value: string): string {
    const plain = Buffer.from(value, 'utf8');
    const iv = this.siv(plain);
    const cipher = createCipheriv('aes-256-ctr', this.encKey, iv);
    return `${PREFIX}${this.keyId}.${Buffer.concat([iv, cipher.update(plain), cipher.final()]).toString('base64url')}`;
  }

  /** Whether `envelope` was sealed with this cipher's key (a value to leave as it is when re-sealing). */
  sealedHere(envelope: string): boolean {
    return envelope.startsWith(`${PREFIX}${this.keyId}.`);
  }

  /** The value; throws SealedValueError when the envelope was altered or sealed with another key. */
  open(envelope: string): string {
    if (!SivValueCipher.isSealed(envelope)) throw new SealedValueError('not a sealed value');
    if (!this.sealedHere(envelope)) throw new SealedValueError('sealed with a different encryption key');
    const body = Buffer.from(envelope.slice(PREFIX.length + this.keyId.length + 1), 'base64url');
    if (body.length < SIV_BYTES) throw new SealedValueError('altered: too short');
    const iv = body.subarray(0, SIV_BYTES);
    const decipher = createDecipheriv('aes-256-ctr', this.encKey, iv);
    const plain = Buffer.concat([decipher.update(body.subarray(SIV_BYTES)), decipher.final()]);
    if (!timingSafeEqual(this.siv(plain), iv)) throw new SealedValueError('altered: its check failed');
    return plain.toString('utf8');
  }

  private siv(plain: Buffer): Buffer {
    return createHmac('sha256', this.macKey).update(plain).digest().subarray(0, SIV_BYTES);
  }
}
