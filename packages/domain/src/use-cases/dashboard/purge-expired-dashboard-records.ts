import type { DashboardInvitationRepository } from '../../ports/dashboard-invitation-repository';
import type { LoginThrottle } from '../../ports/login-throttle';
import type { Clock } from '../../shared/clock';
import type { DashboardSessions } from './dashboard-sessions';

/** Sign-in windows older than this are over whatever their length (the longest is 15 minutes). */
const ATTEMPTS_KEPT_MS = 24 * 3_600_000;

/** Housekeeping, hourly: expired sessions, invitations and setup tokens, and old sign-in windows. */
export class PurgeExpiredDashboardRecords {
  constructor(
    private readonly sessions: DashboardSessions,
    private readonly invitations: DashboardInvitationRepository,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ sessions: number; invitations: number; attempts: number }> {
    const now = this.clock.now();
    return {
      sessions: await this.sessions.purgeExpired(),
      invitations: await this.invitations.purgeExpired(now),
      attempts: await this.throttle.purge(new Date(now.getTime() - ATTEMPTS_KEPT_MS)),
    };
  }
}
