import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EncryptionKeyring } from './encryption-keyring';

export const ENCRYPTION_KEY_FILE = 'encryption.key';

function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must be the base64 encoding of 32 bytes (got ${key.length} bytes)`);
  return key;
}

function readKeyFile(path: string): Buffer | null {
  try {
    return decodeKey(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The key for credentials at rest: the configured one (HERALD_ENCRYPTION_KEY), else the one in
 * `<dataDir>/encryption.key`, generated there (mode 0600) on first use. Synchronous: it runs once,
 * while the composition root is built. Processes starting at once agree on one key: the file
 * appears whole through link(), which fails for the loser, who then reads the winner's.
 */
export function loadEncryptionKey(options: { configured?: string; dataDir: string }): Buffer {
  if (options.configured) return decodeKey(options.configured, 'HERALD_ENCRYPTION_KEY');
  const path = join(options.dataDir, ENCRYPTION_KEY_FILE);
  const existing = readKeyFile(path);
  if (existing) return existing;
  mkdirSync(options.dataDir, { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return decodeKey(readFileSync(path, 'utf8'), path);
}

/**
 * The keyring: the key `loadEncryptionKey` loads, and behind it the previous keys of a rotation
 * (HERALD_ENCRYPTION_KEYS_PREVIOUS: base64 keys, comma-separated), kept only for reading.
 */
export function loadEncryptionKeyring(options: { configured?: string; previous?: string; dataDir: string }): EncryptionKeyring {
  const previous = (options.previous ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  return new EncryptionKeyring(loadEncryptionKey(options), previous.map((k, i) => decodeKey(k, `HERALD_ENCRYPTION_KEYS_PREVIOUS (key ${i + 1})`)));
}
