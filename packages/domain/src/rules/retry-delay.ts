import type { RetryPolicy } from '../entities/retry-policy';

/** A Retry-After longer than this is not waited for: the provider is treated as down. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * Milliseconds to wait before retry number `retry` (1 = the first retry): exponential, capped, with
 * jitter from `random` (0..1). A provider's Retry-After is honoured when it asks for longer.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, random: number, retryAfterMs?: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** Math.max(0, retry - 1));
  const jittered = Math.round(exponential * (1 + policy.jitter * (2 * random - 1)));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
