import { DomainError, type ChannelSettings } from '@herald/domain';
import type { EncryptionKeyring } from './encryption-keyring';
import { SealedValueError, SivValueCipher } from './siv-value-cipher';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A subscriber's channel settings as stored: every string inside `credentials` (webhook URLs, device
 * tokens one by one, chat channels and tokens) sealed on its own with `SivValueCipher`, the rest
 * (provider, integration) as it is; likewise each value of a channel endpoint's address. Sealing value by value, deterministically, keeps the statements
 * that work on the stored JSON working on ciphertext: settings merge key by key, equal device tokens
 * collapse under DISTINCT, and a token is removed by comparing its envelope.
 */
export class ChannelCredentialCipher {
  private readonly values: SivValueCipher;

  constructor(keys: Buffer | EncryptionKeyring) {
    this.values = new SivValueCipher(keys);
  }

  /** The settings to store, every credential value sealed (a client's text that looks sealed too). */
  seal<T extends { credentials?: unknown }>(channels: readonly T[]): T[] {
    return this.sealWith(channels, (v) => this.values.seal(v));
  }

  /** A device token (or any one value) as `seal` stores it. */
  sealValue(value: string): string {
    return this.values.seal(value);
  }

  /** A value as any key of the ring sealed it: what SQL compares stored values with during a rotation. */
  sealedForms(value: string): string[] {
    return this.values.sealEverywhere(value);
  }

  /**
   * Stored settings with every value under the current key: plain ones (written before sealing began)
   * sealed, a previous key's envelopes re-sealed, the current key's kept (the migration and the rotation).
   */
  sealStored(channels: readonly ChannelSettings[], subscriberId = '(stored)'): ChannelSettings[] {
    return this.opening(`the channel credentials of subscriber ${subscriberId}`, () => this.sealWith(channels, (v) => this.reseal(v)));
  }

  /**
   * The settings as written, from stored ones. A value stored before sealing began reads as it is.
   * An envelope that does not open (altered, or another key) fails the whole read with a
   * CREDENTIALS_UNREADABLE DomainError that names the subscriber, never with the stored text.
   */
  open(channels: readonly ChannelSettings[], subscriberId: string): ChannelSettings[] {
    if (!channels.length) return channels as ChannelSettings[];
    return this.opening(`the channel credentials of subscriber ${subscriberId}`, () =>
      channels.map((c) => (c.credentials === undefined ? c : { ...c, credentials: distinctTokens(walk(c.credentials as Json, (v) => this.openOne(v))) as ChannelSettings['credentials'] })),
    );
  }

  /** A channel endpoint's address (a webhook URL, a chat channel or user, a phone number) to store: each value sealed. */
  sealAddress(address: Readonly<Record<string, string>>): Record<string, string> {
    return walk(address as Json, (v) => this.values.seal(v)) as Record<string, string>;
  }

  /** A stored address as written; fails as `open` does, naming the endpoint. */
  openAddress(address: Readonly<Record<string, string>>, identifier: string): Record<string, string> {
    return this.opening(`the address of channel endpoint ${identifier}`, () => walk(address as Json, (v) => this.openOne(v)) as Record<string, string>);
  }

  /** A stored address with every value under the current key, as `sealStored` does. */
  sealStoredAddress(address: Readonly<Record<string, string>>, identifier = '(stored)'): Record<string, string> {
    return this.opening(`the address of channel endpoint ${identifier}`, () => walk(address as Json, (v) => this.reseal(v)) as Record<string, string>);
  }

  /** Whether `value` is stored as every write stores it now: sealed under the current key. */
  sealedHere(value: string): boolean {
    return this.values.sealedHere(value);
  }

  /**
   * `target` with a `channels` property that opens `stored` when first read. On the delivery paths
   * only channel steps read it: nothing is decrypted for the others, and credentials that do not
   * open fail the step that needs them (with the error above), not the batch it was claimed with.
   */
  attach<T extends object>(target: T, stored: readonly ChannelSettings[] | null, subscriberId: string): T & { channels: ChannelSettings[] } {
    // Most subscribers store no channel settings. A plain property spares each of them an accessor
    // and its closure: a fan-out attaches one per recipient (3% of its service CPU, garbage aside).
    if (!stored?.length) return Object.assign(target, { channels: [] as ChannelSettings[] });
    let opened: ChannelSettings[] | undefined;
    return Object.defineProperty(target, 'channels', {
      enumerable: true,
      get: () => (opened ??= this.open(stored ?? [], subscriberId)),
    }) as T & { channels: ChannelSettings[] };
  }

  private reseal(value: string): string {
    if (this.values.sealedHere(value)) return value;
    return this.values.seal(this.openOne(value));
  }

  private openOne(value: string): string {
    return SivValueCipher.isSealed(value) ? this.values.open(value) : value;
  }

  private opening<T>(what: string, read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof SealedValueError)) throw error;
      throw new DomainError('CREDENTIALS_UNREADABLE', `${what} cannot be decrypted (${error.message}): altered in the database, or encrypted with another HERALD_ENCRYPTION_KEY`);
    }
  }

  private sealWith<T extends { credentials?: unknown }>(channels: readonly T[], f: (text: string) => string): T[] {
    return channels.map((c) => (c.credentials === undefined ? c : { ...c, credentials: walk(c.credentials as Json, f) }));
  }
}

/** `value` with every string in it (at any depth, in arrays and objects) replaced by `f` of it. */
function walk(value: Json, f: (text: string) => string): Json {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, f)]));
  return value;
}

/**
 * Until `pnpm herald subscribers encrypt-credentials` has run, a row may hold a device token both as
 * written before sealing began and sealed (merged in since): opened, they are one device, sent to once.
 */
function distinctTokens(credentials: Json): Json {
  if (!credentials || typeof credentials !== 'object' || Array.isArray(credentials)) return credentials;
  const tokens = credentials.deviceTokens;
  if (!Array.isArray(tokens) || new Set(tokens).size === tokens.length) return credentials;
  return { ...credentials, deviceTokens: [...new Set(tokens)] };
}
