import { randomBytes } from 'node:crypto';
import type { ChannelSettings } from '@herald/domain';
import { DomainError } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { ChannelCredentialCipher } from './channel-credential-cipher';
import { EncryptionKeyring } from './encryption-keyring';
import { SivValueCipher } from './siv-value-cipher';

const key = randomBytes(32);
const cipher = new ChannelCredentialCipher(key);
const settings: ChannelSettings[] = [
  { providerId: 'fcm', _integrationId: 'i-1', credentials: { deviceTokens: ['token-a', 'token-b'] } },
  { providerId: 'slack', integrationIdentifier: 'slack-1', _integrationId: 'i-2', credentials: { webhookUrl: 'https://hooks.example.com/T1/B2', channel: '#ops' } },
];

describe('SivValueCipher', () => {
  const values = new SivValueCipher(key);

  it('seals equal values equally, different values differently, and opens them', () => {
    expect(values.seal('token-a')).toBe(values.seal('token-a'));
    expect(values.seal('token-a')).not.toBe(values.seal('token-b'));
    expect(values.seal('token-a')).toMatch(/^hsv1\./);
    expect(values.open(values.seal('ünïcode ✓'))).toBe('ünïcode ✓');
    expect(values.open(values.seal(''))).toBe('');
  });

  it('opens what a previous key of the ring sealed, seals with the current one, and compares under both', () => {
    const next = randomBytes(32);
    const ring = new SivValueCipher(new EncryptionKeyring(next, [key]));
    const old = values.seal('token-a');
    expect(ring.open(old)).toBe('token-a');
    expect(ring.seal('token-a')).toBe(new SivValueCipher(next).seal('token-a'));
    expect(ring.sealEverywhere('token-a')).toEqual([ring.seal('token-a'), old]);
    expect(ring.sealedHere(old)).toBe(false);
    // Re-sealing under the ring moves plain values and the previous key's envelopes, keeps the current key's.
    const rotating = new ChannelCredentialCipher(new EncryptionKeyring(next, [key]));
    const stored = [{ ...settings[0], credentials: { deviceTokens: [old, 'token-b', rotating.sealValue('token-c')] } }];
    expect(rotating.sealStored(stored)).toEqual(rotating.seal([{ ...settings[0], credentials: { deviceTokens: ['token-a', 'token-b', 'token-c'] } }]));
    expect(() => new ChannelCredentialCipher(next).sealStored(stored)).toThrow(DomainError);
  });

  it('is keyed: another installation key seals differently and cannot open', () => {
    const other = new SivValueCipher(randomBytes(32));
    expect(other.seal('token-a')).not.toBe(values.seal('token-a'));
    expect(() => other.open(values.seal('token-a'))).toThrow(/different encryption key/);
  });

  it('refuses an altered envelope, whichever byte was changed', () => {
    const sealed = values.seal('https://hooks.example.com/T1/B2');
    const [prefix, id, body] = sealed.split('.');
    const bytes = Buffer.from(body, 'base64url');
    for (const at of [0, 15, 16, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] ^= 1;
      expect(() => values.open(`${prefix}.${id}.${altered.toString('base64url')}`)).toThrow(/altered/);
    }
    expect(() => values.open(`${prefix}.${id}.${bytes.subarray(0, 10).toString('base64url')}`)).toThrow(/altered/);
  });
});

describe('ChannelCredentialCipher', () => {
  it('seals every credential value and nothing else, and opens them back', () => {
    const sealed = cipher.seal(settings);
    const text = JSON.stringify(sealed);
    for (const plain of ['token-a', 'token-b', 'hooks.example.com', '#ops']) expect(text).not.toContain(plain);
    expect(sealed[1]).toMatchObject({ providerId: 'slack', integrationIdentifier: 'slack-1', _integrationId: 'i-2' });
    expect((sealed[0].credentials.deviceTokens as string[]).length).toBe(2);
    expect(cipher.open(sealed, 'sub-1')).toEqual(settings);
  });

  it('seals a client value that looks sealed like any other, so it reads back as given', () => {
    const lookalike = [{ ...settings[0], credentials: { deviceTokens: ['hsv1.not-an-envelope'] } }];
    expect(cipher.open(cipher.seal(lookalike), 's')).toEqual(lookalike);
  });

  it('reads values stored before sealing as they are; sealStored seals only those', () => {
    const mixed = [{ ...settings[0], credentials: { deviceTokens: [cipher.sealValue('token-a'), 'token-b'] } }];
    expect(cipher.open(mixed, 's')).toEqual([settings[0]]);
    expect(cipher.sealStored(mixed)).toEqual(cipher.seal([settings[0]]));
    expect(cipher.sealStored(cipher.seal(settings))).toEqual(cipher.seal(settings));
  });

  it('opens a token stored both as written and sealed (merged in before the migration ran) as one device', () => {
    const both = [{ ...settings[0], credentials: { deviceTokens: ['token-a', cipher.sealValue('token-a'), cipher.sealValue('token-b')] } }];
    expect(cipher.open(both, 's')).toEqual([settings[0]]);
  });

  it('fails closed on an altered value: a CREDENTIALS_UNREADABLE error naming the subscriber, never the stored text', () => {
    const sealed = cipher.seal(settings);
    const url = sealed[1].credentials.webhookUrl as string;
    const altered = [sealed[0], { ...sealed[1], credentials: { ...sealed[1].credentials, webhookUrl: `${url.slice(0, -2)}AA` } }];
    let error: unknown;
    try {
      cipher.open(altered, 'sub-42');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'CREDENTIALS_UNREADABLE', message: expect.stringContaining('sub-42') });
    expect((error as Error).message).not.toContain(url.slice(10, 30));
  });

  it('attach opens on first read only, and an unreadable value fails that read', () => {
    const stored = cipher.seal(settings);
    const subscriber = cipher.attach({ id: 'x' }, stored, 'sub-1');
    expect(subscriber.channels).toEqual(settings);
    expect(subscriber.channels).toBe(subscriber.channels);
    const broken = cipher.attach({ id: 'y' }, [{ ...stored[0], credentials: { deviceTokens: ['hsv1.AAAAAAAA.AAAA'] } }], 'sub-2');
    expect(broken.id).toBe('y');
    expect(() => broken.channels).toThrow(/sub-2/);
  });
});
