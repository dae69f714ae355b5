import { token } from '../shared/token';

export const SubscriberTokens = token<SubscriberTokens>('SubscriberTokens');

/** Who an inbox session belongs to: one subscriber of one environment. */
export interface SubscriberClaims {
  environmentId: string;
  /** The subscriber's internal id. */
  subscriberRef: string;
  /** The subscriber id the product knows. */
  subscriberId: string;
  /** The environment's `inboxSecurityVersion` when the token was issued. */
  securityVersion: number;
}

/**
 * Signed, stateless subscriber tokens: any process of the installation verifies a token another
 * issued, without a database read.
 */
export interface SubscriberTokens {
  issue(claims: SubscriberClaims): string;
  /** null when the token is malformed, forged, made with another key, or expired. */
  verify(token: string): SubscriberClaims | null;
}
