import { token } from '../shared/token';

export const LoginThrottle = token<LoginThrottle>('LoginThrottle');

/** A counter of sign-in attempts: per account (`account:<email>`) or per client address (`address:<ip>`). */
export interface ThrottleKey {
  key: string;
  /** Attempts allowed in one window. */
  limit: number;
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Sign-in attempts counted in fixed windows, shared by every process (so a limit holds however many
 * run). An attempt is counted before the password is checked, so concurrent guesses cannot slip past.
 */
export interface LoginThrottle {
  /** Counts one attempt against every key, atomically; refused when any key is past its limit in its window. */
  attempt(keys: ThrottleKey[], windowMs: number, now: Date): Promise<ThrottleDecision>;
  /** A good attempt: the account's count is cleared, and this attempt no longer counts against the address. */
  forgive(accountKey: string, addressKey?: string): Promise<void>;
  /** Drops windows that started before `before` (the caller passes now minus the window); returns how many. */
  purge(before: Date): Promise<number>;
}
