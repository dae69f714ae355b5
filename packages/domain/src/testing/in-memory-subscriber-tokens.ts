import { randomUUID } from 'node:crypto';
import type { SubscriberClaims, SubscriberTokens } from '../ports/subscriber-tokens';

/** What one installation's processes share: the tokens any of them issued. */
export type TokenInstallation = Map<string, { claims: SubscriberClaims; expiresAt: number }>;

/**
 * The SubscriberTokens double: opaque random tokens remembered by the installation, so every process
 * sharing it verifies them and no other installation does. `subscriber-tokens-contract.ts` holds it
 * to the HMAC tokens' behaviour.
 */
export class InMemorySubscriberTokens implements SubscriberTokens {
  constructor(
    readonly installation: TokenInstallation = new Map(),
    private readonly ttlMs = 7 * 24 * 3600_000,
    private readonly now: () => number = Date.now,
  ) {}

  issue(claims: SubscriberClaims): string {
    const token = `tok_${randomUUID()}`;
    this.installation.set(token, { claims: { ...claims }, expiresAt: this.now() + this.ttlMs });
    return token;
  }

  verify(token: string): SubscriberClaims | null {
    const issued = this.installation.get(token);
    return issued && issued.expiresAt > this.now() ? { ...issued.claims } : null;
  }
}
