import { DomainError } from '../../errors';
import type { SubscriberClaims, SubscriberTokens } from '../../ports/subscriber-tokens';

/** Resolves `Authorization: Bearer <subscriber token>` (or a socket's token) to its subscriber. */
export class AuthenticateSubscriberToken {
  constructor(private readonly tokens: SubscriberTokens) {}

  execute(authorization: string | undefined): SubscriberClaims {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new DomainError('UNAUTHORIZED', 'Subscriber token is missing: send "Authorization: Bearer <token>" from POST /v1/inbox/session');
    const claims = this.tokens.verify(token);
    if (!claims) throw new DomainError('UNAUTHORIZED', 'Subscriber token is not valid or has expired; start a new session');
    return claims;
  }
}
