import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SubscriberClaims, SubscriberTokens } from '@herald/domain';

const DEFAULT_TTL_MS = 7 * 24 * 3600_000;

/**
 * Subscriber tokens as `<payload>.<signature>` (base64url JSON, HMAC-SHA256). The signing key is
 * derived from the installation's encryption key, which every process of an installation shares,
 * so any of them verifies a token another issued.
 */
export class HmacSubscriberTokens implements SubscriberTokens {
  private readonly key: Buffer;

  constructor(
    installationKey: Buffer,
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', installationKey).update('herald/inbox-subscriber-token/v1').digest();
  }

  issue(claims: SubscriberClaims): string {
    const body = { e: claims.environmentId, r: claims.subscriberRef, s: claims.subscriberId, v: claims.securityVersion, x: this.now() + this.ttlMs };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload).toString('base64url')}`;
  }

  verify(token: string): SubscriberClaims | null {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { e?: unknown; r?: unknown; s?: unknown; v?: unknown; x?: unknown };
      if (typeof body.e !== 'string' || typeof body.r !== 'string' || typeof body.s !== 'string' || typeof body.x !== 'number') return null;
      if (body.x <= this.now()) return null;
      // Tokens issued before versions existed carry none: version 0, which any change of the environment's Inbox security ends.
      const securityVersion = body.v === undefined ? 0 : body.v;
      if (typeof securityVersion !== 'number' || !Number.isInteger(securityVersion)) return null;
      return { environmentId: body.e, subscriberRef: body.r, subscriberId: body.s, securityVersion };
    } catch {
      return null;
    }
  }

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}
