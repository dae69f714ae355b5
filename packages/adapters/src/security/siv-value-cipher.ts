import { createCipheriv, createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { EncryptionKeyring } from './encryption-keyring';

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
 * Both keys are derived with HKDF from each key of the ring, apart from the one the random
 * credentials cipher uses. Envelope: `hsv1.<key id>.<base64url(iv || ciphertext)>`; the key id
 * (EncryptionKeyring's, derived, not secret) picks the key that opens it.
 */
export class SivValueCipher {
  private readonly keys: ReadonlyMap<string, SivKeys>;
  private readonly currentId: string;

  constructor(keys: Buffer | EncryptionKeyring) {
    const ring = EncryptionKeyring.of(keys);
    this.currentId = ring.currentId;
    this.keys = new Map(ring.all().map(({ id, key }) => [id, sivKeys(key)]));
  }

  /** Whether a stored string is an envelope (of any key); anything else is a value written before sealing. */
  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  /** The envelope under the current key: what every write stores. */
  seal(value: string): string {
    return this.sealUnder(this.currentId, value);
  }

  /**
   * The envelopes of `value` under every key of the ring, the current one first: what SQL compares a
   * stored value with while a rotation is under way (some rows still hold a previous key's envelope).
   */
  sealEverywhere(value: string): string[] {
    return [...this.keys.keys()].map((id) => this.sealUnder(id, value));
  }

  /** Whether `envelope` was sealed with the current key (a value to leave as it is when re-sealing). */
  sealedHere(envelope: string): boolean {
    return envelope.startsWith(`${PREFIX}${this.currentId}.`);
  }

  /** The value; throws SealedValueError when the envelope was altered or sealed with a key not in the ring. */
  open(envelope: string): string {
    if (!SivValueCipher.isSealed(envelope)) throw new SealedValueError('not a sealed value');
    const dot = envelope.indexOf('.', PREFIX.length);
    const keys = dot < 0 ? undefined : this.keys.get(envelope.slice(PREFIX.length, dot));
    if (!keys) throw new SealedValueError('sealed with a different encryption key');
    const body = Buffer.from(envelope.slice(dot + 1), 'base64url');
    if (body.length < SIV_BYTES) throw new SealedValueError('altered: too short');
    const iv = body.subarray(0, SIV_BYTES);
    const decipher = createDecipheriv('aes-256-ctr', keys.enc, iv);
    const plain = Buffer.concat([decipher.update(body.subarray(SIV_BYTES)), decipher.final()]);
    if (!timingSafeEqual(siv(keys, plain), iv)) throw new SealedValueError('altered: its check failed');
    return plain.toString('utf8');
  }

  private sealUnder(id: string, value: string): string {
    const keys = this.keys.get(id)!;
    const plain = Buffer.from(value, 'utf8');
    const iv = siv(keys, plain);
    const cipher = createCipheriv('aes-256-ctr', keys.enc, iv);
    return `${PREFIX}${id}.${Buffer.concat([iv, cipher.update(plain), cipher.final()]).toString('base64url')}`;
  }
}

interface SivKeys {
  enc: Buffer;
  mac: Buffer;
}

function sivKeys(key: Buffer): SivKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `herald sealed values: ${info}`, 32));
  return { enc: derive('aes-256-ctr'), mac: derive('hmac-sha256') };
}

function siv(keys: SivKeys, plain: Buffer): Buffer {
  return createHmac('sha256', keys.mac).update(plain).digest().subarray(0, SIV_BYTES);
}
