import type { DashboardSession, DashboardUser, SessionPolicy } from '../../entities/dashboard';
import { DomainError } from '../../errors';
import type { DashboardSessionRepository } from '../../ports/dashboard-session-repository';
import type { Clock } from '../../shared/clock';
import { hashDashboardToken, newDashboardToken } from './dashboard-tokens';

export interface OpenedSession {
  /** For the cookie: shown to the browser once, stored only as its hash. */
  token: string;
  expiresAt: Date;
  user: DashboardUser;
}

/**
 * The life of a dashboard session: opened by a sign-in (or a setup or an accepted invitation),
 * found again by its token on each request, ended by sign-out, by `policy.idleMs` without a request,
 * or at `policy.absoluteMs` after it opened, whichever comes first.
 */
export class DashboardSessions {
  /** Activity is written at most this often (a write per request would be a write per API call). */
  private readonly touchEveryMs: number;

  constructor(
    private readonly sessions: DashboardSessionRepository,
    readonly policy: SessionPolicy,
    private readonly clock: Clock,
  ) {
    this.touchEveryMs = Math.min(60_000, policy.idleMs / 4);
  }

  async open(user: DashboardUser): Promise<OpenedSession> {
    const token = newDashboardToken();
    const createdAt = this.clock.now();
    const expiresAt = new Date(createdAt.getTime() + this.policy.absoluteMs);
    await this.sessions.create({ userId: user.id, tokenHash: hashDashboardToken(token), createdAt, expiresAt });
    return { token, expiresAt, user };
  }

  /** The live session of this token; UNAUTHORIZED when it is unknown, ended or expired. */
  async authenticate(token: string | undefined): Promise<DashboardSession> {
    const session = token ? await this.sessions.findByTokenHash(hashDashboardToken(token)) : null;
    if (!session) throw new DomainError('UNAUTHORIZED', 'Dashboard session is missing or has ended: sign in again');
    const now = this.clock.now().getTime();
    const idleFor = now - session.lastSeenAt.getTime();
    if (now >= session.expiresAt.getTime() || idleFor >= this.policy.idleMs) {
      await this.sessions.delete(session.id);
      throw new DomainError('UNAUTHORIZED', 'Dashboard session has expired: sign in again');
    }
    if (idleFor >= this.touchEveryMs) await this.sessions.touch(session.id, new Date(now));
    return session;
  }

  /** Sign-out: the session ends on the server, whatever the browser keeps. */
  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** After a password change: every other session of the user ends. */
  endOthers(userId: string, keepSessionId?: string): Promise<number> {
    return this.sessions.deleteForUser(userId, keepSessionId);
  }

  purgeExpired(): Promise<number> {
    const now = this.clock.now();
    return this.sessions.purgeExpired(now, new Date(now.getTime() - this.policy.idleMs));
  }
}
