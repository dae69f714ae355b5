import type { Caller } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { hashApiKey } from './api-keys';

/**
 * Resolves `Authorization: ApiKey <key>` (scheme in any case: HTTP scheme names are case-insensitive)
 * to its environment. Results are cached for `ttlMs`
 * (a revoked key stops working within that time) because this runs on every request. The lookup
 * itself is shared: requests that miss the cache together (every request in flight when an entry
 * expires under load) wait for one lookup, not one each.
 */
export class AuthenticateApiKey {
  private readonly cache = new Map<string, { caller: Promise<Caller | null>; expires: number }>();

  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  async execute(authorization: string | undefined): Promise<Caller> {
    const match = /^ApiKey\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new DomainError('UNAUTHORIZED', authorization ? 'Authorization header must be "ApiKey <key>"' : 'API key is missing: send "Authorization: ApiKey <key>"');
    }
    const hash = hashApiKey(match[1]);
    let cached = this.cache.get(hash);
    if (!cached || cached.expires <= this.now()) {
      if (this.cache.size > 10_000) this.cache.clear();
      const entry = { caller: this.tenancy.findCallerByKeyHash(hash), expires: Infinity };
      this.cache.set(hash, (cached = entry));
      // Its lifetime starts when the answer arrives; a failed lookup is not kept.
      entry.caller.then(
        () => (entry.expires = this.now() + this.ttlMs),
        () => this.cache.get(hash) === entry && this.cache.delete(hash),
      );
    }
    const caller = await cached.caller;
    if (!caller) throw new DomainError('UNAUTHORIZED', 'API key is not valid');
    return caller;
  }
}
