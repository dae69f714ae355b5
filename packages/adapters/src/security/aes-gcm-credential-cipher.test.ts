import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AesGcmCredentialCipher } from './aes-gcm-credential-cipher';
import { ENCRYPTION_KEY_FILE, loadEncryptionKey, loadEncryptionKeyring } from './encryption-key';
import { EncryptionKeyring, keyId } from './encryption-keyring';

const secret = { apiKey: 'SG.super-secret', port: '587', secure: true };

describe('AesGcmCredentialCipher', () => {
  const cipher = new AesGcmCredentialCipher(randomBytes(32));

  it('round-trips, with a fresh IV each time and no plain text in the envelope', () => {
    const a = cipher.encrypt(secret);
    const b = cipher.encrypt(secret);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2\.[\w-]{8}\./);
    expect(a).not.toContain('super-secret');
    expect(cipher.decrypt(a)).toEqual(secret);
  });

  it('detects tampering and a different key', () => {
    const envelope = cipher.encrypt(secret);
    const parts = envelope.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt([...parts.slice(0, 4), flipped.toString('base64url')].join('.'))).toThrow(/altered/);
    expect(() => new AesGcmCredentialCipher(randomBytes(32)).decrypt(envelope)).toThrow(/different key/);
    expect(() => cipher.decrypt('plain text')).toThrow(/known version/);
  });

  it('writes with the current key and reads what previous keys of the ring wrote, by key id', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const underA = new AesGcmCredentialCipher(a).encrypt(secret);
    const rotated = new AesGcmCredentialCipher(new EncryptionKeyring(b, [a]));
    expect(rotated.decrypt(underA)).toEqual(secret);
    expect(underA.split('.')[1]).toBe(keyId(a));
    expect(rotated.encrypt(secret).split('.')[1]).toBe(keyId(b));
    expect(rotated.encryptedHere(underA)).toBe(false);
    // Once A is dropped, its envelopes fail as altered ones do: the same clear error, no other.
    expect(() => new AesGcmCredentialCipher(b).decrypt(underA)).toThrow(/altered, or encrypted with a different key/);
  });

  it('reads envelopes of the version without a key id (v1) with any key of the ring', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const iv = randomBytes(12);
    const gcm = createCipheriv('aes-256-gcm', a, iv);
    const ciphertext = Buffer.concat([gcm.update(JSON.stringify(secret)), gcm.final()]);
    const v1 = ['v1', ...[iv, gcm.getAuthTag(), ciphertext].map((p) => p.toString('base64url'))].join('.');
    expect(new AesGcmCredentialCipher(a).decrypt(v1)).toEqual(secret);
    expect(new AesGcmCredentialCipher(new EncryptionKeyring(b, [a])).decrypt(v1)).toEqual(secret);
    expect(() => new AesGcmCredentialCipher(b).decrypt(v1)).toThrow(/different key/);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => new AesGcmCredentialCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('loadEncryptionKey', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-key-'));
    dirs.push(dir);
    return join(dir, 'data');
  };
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('generates the key once into the data directory (0600) and reuses it', async () => {
    const dataDir = await tempDir();
    const first = loadEncryptionKey({ dataDir });
    expect(first.length).toBe(32);
    expect(loadEncryptionKey({ dataDir }).equals(first)).toBe(true);
    const path = join(dataDir, ENCRYPTION_KEY_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64').equals(first)).toBe(true);
  });

  it('reads a key file another process wrote rather than replacing it', async () => {
    const dataDir = await tempDir();
    const theirs = randomBytes(32);
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, ENCRYPTION_KEY_FILE), theirs.toString('base64'));
    expect(loadEncryptionKey({ dataDir }).equals(theirs)).toBe(true);
    await writeFile(join(dataDir, ENCRYPTION_KEY_FILE), 'dG9vIHNob3J0');
    expect(() => loadEncryptionKey({ dataDir })).toThrow(/32 bytes/);
  });

  it('prefers the configured key and validates it', async () => {
    const dataDir = await tempDir();
    const configured = randomBytes(32);
    expect(loadEncryptionKey({ configured: configured.toString('base64'), dataDir }).equals(configured)).toBe(true);
    expect(() => loadEncryptionKey({ configured: 'c2hvcnQ=', dataDir })).toThrow(/32 bytes/);
    await expect(stat(join(dataDir, ENCRYPTION_KEY_FILE))).rejects.toThrow();
  });

  it('adds the previous keys (comma-separated) behind the current one, validating each', async () => {
    const dataDir = await tempDir();
    const [current, old1, old2] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const ring = loadEncryptionKeyring({ configured: current.toString('base64'), previous: ` ${old1.toString('base64')}, ${old2.toString('base64')},`, dataDir });
    expect(ring.current.equals(current)).toBe(true);
    expect(ring.all().map((k) => k.id)).toEqual([current, old1, old2].map(keyId));
    expect(() => loadEncryptionKeyring({ configured: current.toString('base64'), previous: 'c2hvcnQ=', dataDir })).toThrow(/HERALD_ENCRYPTION_KEYS_PREVIOUS.*32 bytes/);
  });
});
