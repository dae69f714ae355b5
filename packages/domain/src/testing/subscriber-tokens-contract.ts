import { describe, expect, it } from 'vitest';
import type { SubscriberTokens } from '../ports/subscriber-tokens';

/** Token issuers on one clock: two processes of one installation, and one of another installation. */
export interface SubscriberTokensFixture {
  process: SubscriberTokens;
  sameInstallation: SubscriberTokens;
  otherInstallation: SubscriberTokens;
  /** Moves the shared clock on. */
  advance(ms: number): void;
  ttlMs: number;
}

const claims = { environmentId: 'env-1', subscriberRef: 'ref-1', subscriberId: 'ada', securityVersion: 3 };

/** The behaviour every SubscriberTokens has; run against the in-memory double and the HMAC tokens. */
export function subscriberTokensContract(name: string, setup: () => SubscriberTokensFixture): void {
  describe(`SubscriberTokens contract: ${name}`, () => {
    it("verifies a token any process of the installation issued, and no other installation's", () => {
      const { process, sameInstallation, otherInstallation } = setup();
      const token = process.issue(claims);
      expect(process.verify(token)).toEqual(claims);
      expect(sameInstallation.verify(token)).toEqual(claims);
      expect(otherInstallation.verify(token)).toBeNull();
      expect(process.verify(otherInstallation.issue(claims))).toBeNull();
    });

    it('refuses a malformed or altered token', () => {
      const { process } = setup();
      const token = process.issue(claims);
      const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      for (const bad of ['', 'x', `${token}.x`, altered, token.slice(1), token.toUpperCase()]) expect(process.verify(bad)).toBeNull();
    });

    it('refuses a token once its lifetime has passed', () => {
      const { process, advance, ttlMs } = setup();
      const token = process.issue(claims);
      advance(ttlMs - 1);
      expect(process.verify(token)).toEqual(claims);
      advance(1);
      expect(process.verify(token)).toBeNull();
    });
  });
}
