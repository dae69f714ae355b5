import type { Caller } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { SharedReads } from '../../shared/shared-reads';
import { hashApiKey } from './api-keys';

/**
 * Resolves `Authorization: ApiKey <key>` (scheme in any case: HTTP scheme names are case-insensitive)
 * to its environment. Results are cached for `ttlMs`
 * (a revoked key stops working within that time) because this runs on every request. The lookup
 * itself is shared: requests that miss the cache together (every request in flight when an entry
 * expires under load) wait for one lookup, not one each.
 */
export class AuthenticateApiKey {
  private readonly callers: SharedReads<Caller | null>;

  constructor(
    private readonly tenancy: TenancyRepository,
    ttlMs = 5_000,
    now: () => number = Date.now,
  ) {
    this.callers = new SharedReads(ttlMs, undefined, now);
  }

  async execute(authorization: string | undefined): Promise<Caller> {
    const match = /^ApiKey\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new DomainError('UNAUTHORIZED', authorization ? 'Authorization header must be "ApiKey <key>"' : 'API key is missing: send "Authorization: ApiKey <key>"');
    }
    const hash = hashApiKey(match[1]);
    const caller = await this.callers.get(hash, () => this.tenancy.findCallerByKeyHash(hash));
    if (!caller) throw new DomainError('UNAUTHORIZED', 'API key is not valid');
    return caller;
  }
}
