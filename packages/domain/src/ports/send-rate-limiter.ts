import { token } from '../shared/token';

export const SendRateLimiter = token<SendRateLimiter>('SendRateLimiter');

/** A send slot: when the send may start, or (none left within the horizon) when to try again. */
export type SendSlot = { waitMs: number } | { retryInMs: number };

/**
 * Spaces the sends of one integration to its rate across every process sharing the store: slots
 * `1000 / perSecond` ms apart, each given to one send only, so sends started no earlier than their
 * slot never exceed the rate in any window.
 */
export interface SendRateLimiter {
  /**
   * Reserves the integration's next free slot if it starts within `horizonMs` from now, and says how
   * long to wait for it (0: now). When the next free slot is further away, nothing is reserved and
   * `retryInMs` says when it is. Slots of a lower or higher rate than before follow the last one given.
   */
  reserve(integrationId: string, perSecond: number, horizonMs: number): Promise<SendSlot>;
}
