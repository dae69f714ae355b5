import type { Caller } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { hashApiKey } from './api-keys';

/**
 * Resolves `Authorization: ApiKey <key>` (scheme in any case: HTTP scheme names are case-insensitive)
 * to its environment. Results are cached for `ttlMs`
 * (a revoked key stops working within that time) because this runs on every request.
 */
export class AuthenticateApiKey {
  private readonly cache = new Map<string, { caller: Caller | null; expires: number }>();

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
    const cached = this.cache.get(hash);
    let caller: Caller | null;
    if (cached && cached.expires > this.now()) {
      caller = cached.caller;
    } else {
      caller = await this.tenancy.findCallerByKeyHash(hash);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, { caller, expires: this.now() + this.ttlMs });
    }
    if (!caller) throw new DomainError('UNAUTHORIZED', 'API key is not valid');
    return caller;
  }
}
