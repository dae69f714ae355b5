import { createHash, randomBytes } from 'node:crypto';

/** Keys are stored as sha256 hex: a leaked table does not leak a usable key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(): string {
  return `hk_${randomBytes(24).toString('base64url')}`;
}

export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

export function keyHint(key: string): string {
  return `${key.slice(0, 6)}…${key.slice(-4)}`;
}
