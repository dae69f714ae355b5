import { DomainError } from '../../errors';
import type { SubscriberClaims, SubscriberTokens } from '../../ports/subscriber-tokens';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { SharedReads } from '../../shared/shared-reads';

/**
 * Resolves `Authorization: Bearer <subscriber token>` (or a socket's token) to its subscriber, and
 * refuses a token issued before its environment's Inbox security last changed. That version is read
 * from the environment and kept for `ttlMs` (this runs on every subscriber request), so a change made
 * by any process, or by the operator command, ends the older tokens everywhere within that time.
 */
export class AuthenticateSubscriberToken {
  private readonly versions: SharedReads<number | null>;

  constructor(
    private readonly tokens: SubscriberTokens,
    private readonly tenancy: Pick<TenancyRepository, 'findEnvironment'>,
    ttlMs = 5_000,
    now: () => number = Date.now,
  ) {
    this.versions = new SharedReads(ttlMs, undefined, now);
  }

  async execute(authorization: string | undefined): Promise<SubscriberClaims> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new DomainError('UNAUTHORIZED', 'Subscriber token is missing: send "Authorization: Bearer <token>" from POST /v1/inbox/session');
    const claims = this.tokens.verify(token);
    if (!claims) throw new DomainError('UNAUTHORIZED', 'Subscriber token is not valid or has expired; start a new session');
    await this.check(claims);
    return claims;
  }

  /** UNAUTHORIZED when the environment is gone or its Inbox security changed after the token was issued. */
  async check(claims: SubscriberClaims): Promise<void> {
    const current = await this.versions.get(claims.environmentId, async () => (await this.tenancy.findEnvironment(claims.environmentId))?.inboxSecurityVersion ?? null);
    // A newer version than the one kept here is a token issued after a change this process has not read yet.
    if (current === null || claims.securityVersion < current) {
      throw new DomainError('UNAUTHORIZED', "Subscriber token was issued before the environment's Inbox security changed; start a new session");
    }
  }
}
