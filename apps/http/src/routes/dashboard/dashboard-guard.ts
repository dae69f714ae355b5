import { DomainError, type DashboardSession, type DashboardSessions } from '@herald/domain';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { checkSameOrigin, isSafeMethod, withSessionCookie } from '../../platform/caller-auth';
import type { RequestOrigins } from '../../platform/request-origin';
import { readSessionCookie } from '../../platform/session-cookie';

/**
 * Who may call a dashboard route, checked before its input is read: anyone (but not another site's
 * page), a signed-in user, or an admin. The session found is the request's `dashboardSession`.
 */
export class DashboardGuard {
  constructor(
    private readonly sessions: DashboardSessions,
    readonly origins: RequestOrigins,
  ) {}

  /**
   * Routes open to anyone (sign-in, setup, invitations): a browser's request from another origin is
   * refused, so no site can sign a visitor in to an account of its choosing; a client that sends no
   * Origin or Referer (curl) is not a browser and may call them.
   */
  readonly open: MiddlewareHandler<AppEnv> = async (c, next) => {
    if ((c.req.header('origin') ?? c.req.header('referer')) !== undefined) checkSameOrigin(c, this.origins);
    await next();
  };

  /** A live session; a change must come from the service's own origin (CSRF). */
  readonly signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
    await this.authenticate(c);
    await next();
  };

  readonly admin: MiddlewareHandler<AppEnv> = async (c, next) => {
    const session = await this.authenticate(c);
    if (session.user.role !== 'admin') throw new DomainError('FORBIDDEN', 'Only admins manage dashboard users and invitations');
    await next();
  };

  private async authenticate(c: Context<AppEnv>): Promise<DashboardSession> {
    if (!isSafeMethod(c.req.method)) checkSameOrigin(c, this.origins);
    const session = await withSessionCookie(c, this.origins, () => this.sessions.authenticate(readSessionCookie(c)));
    c.set('dashboardSession', session);
    return session;
  }
}

/** The session `signedIn` or `admin` found for this request. */
export function sessionOf(c: Context<AppEnv>): DashboardSession {
  const session = c.get('dashboardSession');
  if (!session) throw new Error('dashboard route without its guard');
  return session;
}
