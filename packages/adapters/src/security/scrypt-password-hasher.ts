import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '@herald/domain';

/**
 * scrypt cost: N = 2^15, r = 8, p = 3 (32 MiB a hash; OWASP's Password Storage Cheat Sheet lists it
 * beside 2^17/8/1 as equally strong, at a quarter of the memory). About 0.35 s of one core here.
 * Node's built-in scrypt needs no native addon (argon2 would, and Node 20 has none built in).
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Hashes in flight at once: each holds 128 * N * r bytes, so memory stays bounded under a burst of sign-ins. */
const CONCURRENT = 2;

/** Stored as `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64): a later cost can verify older hashes and replace them. */
export class ScryptPasswordHasher implements PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly burnHash: Promise<string>;

  constructor(private readonly cost: ScryptCost = SCRYPT_COST) {
    this.burnHash = this.hash(randomBytes(16).toString('hex'));
    this.burnHash.catch(() => undefined);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.derive(password, salt, this.cost);
    const { N, r, p } = this.cost;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(password: string, stored: string): Promise<{ valid: boolean; rehash: boolean }> {
    const parsed = parse(stored);
    if (!parsed) return { valid: false, rehash: false };
    const key = await this.derive(password, parsed.salt, parsed.cost);
    const valid = key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
    const { N, r, p } = parsed.cost;
    return { valid, rehash: valid && (N < this.cost.N || r < this.cost.r || p < this.cost.p) };
  }

  async burn(password: string): Promise<void> {
    await this.verify(password, await this.burnHash);
  }

  private async derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
    if (this.running >= CONCURRENT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
      return await new Promise<Buffer>((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

function parse(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !key || ![cost.N, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0)) return null;
  // A cost far above today's is not one this code wrote: refused rather than computed.
  if (cost.N > 2 ** 20 || cost.r > 32 || cost.p > 16) return null;
  return { cost, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}
