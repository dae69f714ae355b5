import { checkPassword, type DashboardSession } from '../../entities/dashboard';
import { DomainError } from '../../errors';
import type { DashboardUserRepository } from '../../ports/dashboard-user-repository';
import type { LoginThrottle } from '../../ports/login-throttle';
import type { PasswordHasher } from '../../ports/password-hasher';
import type { Clock } from '../../shared/clock';
import type { DashboardSessions } from './dashboard-sessions';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-to-dashboard';

export type PasswordChange = { outcome: 'changed' } | { outcome: 'throttled'; retryAfterSeconds: number };

/**
 * A signed-in user changes their own password, proving the current one (a stolen cookie alone must
 * not take the account over). Guesses count against the account as sign-in attempts do; the user's
 * other sessions end.
 */
export class ChangeDashboardPassword {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly throttle: LoginThrottle,
    private readonly hasher: PasswordHasher,
    private readonly sessions: DashboardSessions,
    private readonly clock: Clock,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  async execute(session: DashboardSession, input: { currentPassword: string; newPassword: string }): Promise<PasswordChange> {
    checkPassword(input.newPassword, 'newPassword');
    const account = `account:${session.user.email}`;
    const decision = await this.throttle.attempt([{ key: account, limit: this.limits.perAccount }], this.limits.windowMs, this.clock.now());
    if (!decision.allowed) return { outcome: 'throttled', retryAfterSeconds: decision.retryAfterSeconds };
    const stored = await this.users.passwordHash(session.user.id);
    if (!stored || !(await this.hasher.verify(input.currentPassword, stored)).valid) throw DomainError.field('currentPassword', 'is not your current password');
    await this.throttle.forgive(account);
    await this.users.setPasswordHash(session.user.id, await this.hasher.hash(input.newPassword));
    await this.sessions.endOthers(session.user.id, session.id);
    return { outcome: 'changed' };
  }
}
