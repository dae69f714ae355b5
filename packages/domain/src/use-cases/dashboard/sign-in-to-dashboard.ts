import { normalizeEmail } from '../../entities/dashboard';
import type { DashboardUserRepository } from '../../ports/dashboard-user-repository';
import type { LoginThrottle } from '../../ports/login-throttle';
import type { PasswordHasher } from '../../ports/password-hasher';
import type { Clock } from '../../shared/clock';
import type { DashboardSessions, OpenedSession } from './dashboard-sessions';

export interface SignInInput {
  email: string;
  password: string;
  /** The client's address, as the HTTP layer determined it (behind a trusted proxy: the forwarded one). */
  clientAddress: string;
}

export type SignInResult =
  | { outcome: 'signed_in'; session: OpenedSession }
  /** Wrong email or wrong password: one answer for both, so accounts cannot be discovered. */
  | { outcome: 'refused' }
  | { outcome: 'throttled'; retryAfterSeconds: number };

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** 5 attempts per account and 20 per address in 15 minutes; a successful sign-in gives its attempt back. */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

/** Email and password to a session, with attempts limited per account and per client address. */
export class SignInToDashboard {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly throttle: LoginThrottle,
    private readonly hasher: PasswordHasher,
    private readonly sessions: DashboardSessions,
    private readonly clock: Clock,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  async execute({ email, password, clientAddress }: SignInInput): Promise<SignInResult> {
    const normalized = normalizeEmail(email);
    const account = `account:${normalized}`;
    const address = `address:${clientAddress}`;
    const now = this.clock.now();
    // Counted before the password is checked: guesses sent at once are each counted.
    const decision = await this.throttle.attempt(
      [
        { key: account, limit: this.limits.perAccount },
        { key: address, limit: this.limits.perAddress },
      ],
      this.limits.windowMs,
      now,
    );
    if (!decision.allowed) return { outcome: 'throttled', retryAfterSeconds: decision.retryAfterSeconds };
    const found = await this.users.findByEmail(normalized);
    if (!found) {
      await this.hasher.burn(password);
      return { outcome: 'refused' };
    }
    const { valid, rehash } = await this.hasher.verify(password, found.passwordHash);
    if (!valid) return { outcome: 'refused' };
    await this.throttle.forgive(account, address);
    if (rehash) await this.users.setPasswordHash(found.user.id, await this.hasher.hash(password));
    await this.users.recordSignIn(found.user.id, now);
    return { outcome: 'signed_in', session: await this.sessions.open({ ...found.user, lastSignInAt: now }) };
  }
}
