import { ChangeDashboardPassword, DashboardSessions, DescribeDashboardSession, SetUpDashboard, SignInToDashboard, type OpenedSession } from '@herald/domain';
import type { Context } from 'hono';
import type { Resolver } from '../../platform/app-env';
import { requestFacts } from '../../platform/request-origin';
import { createRouter } from '../../platform/router';
import { errorBody } from '../../platform/errors';
import { clearSessionCookie, writeSessionCookie } from '../../platform/session-cookie';
import { DashboardGuard, sessionOf } from './dashboard-guard';
import { presentMe } from './dashboard.presenter';
import { dashboardAuthRoutes } from './dashboard-auth.routes';

/** Setup, sign-in, sign-out and the signed-in user: the dashboard's own routes around its session. */
export function dashboardAuthRouter(resolve: Resolver) {
  const guard = resolve.get(DashboardGuard);
  const routes = dashboardAuthRoutes(guard);
  const sessions = resolve.get(DashboardSessions);
  const setUp = resolve.get(SetUpDashboard);
  const signIn = resolve.get(SignInToDashboard);
  const describe = resolve.get(DescribeDashboardSession);
  const changePassword = resolve.get(ChangeDashboardPassword);
  const me = async (opened: Pick<OpenedSession, 'user' | 'expiresAt'>) => ({ data: presentMe(await describe.execute(opened), opened, sessions.policy) });
  const throttled = (c: Context, retryAfterSeconds: number) => {
    c.header('Retry-After', String(retryAfterSeconds));
    return c.json(errorBody(c, 429, `Too many attempts: try again in ${retryAfterSeconds} seconds`, { code: 'TOO_MANY_ATTEMPTS' }), 429);
  };

  return createRouter()
    .openapi(routes.setupStatus, async (c) => c.json({ data: { required: await setUp.required() } }, 200))
    .openapi(routes.setup, async (c) => {
      const opened = await setUp.complete(c.req.valid('json'));
      writeSessionCookie(c, guard.origins, opened.token, opened.expiresAt);
      return c.json(await me(opened), 201);
    })
    .openapi(routes.signIn, async (c) => {
      const { email, password } = c.req.valid('json');
      const result = await signIn.execute({ email, password, clientAddress: guard.origins.clientAddress(requestFacts(c)) });
      if (result.outcome === 'throttled') return throttled(c, result.retryAfterSeconds);
      if (result.outcome === 'refused') return c.json(errorBody(c, 401, 'Email or password is wrong', { code: 'UNAUTHORIZED' }), 401);
      writeSessionCookie(c, guard.origins, result.session.token, result.session.expiresAt);
      return c.json(await me(result.session), 200);
    })
    .openapi(routes.signOut, async (c) => {
      await sessions.end(sessionOf(c).id);
      clearSessionCookie(c, guard.origins);
      return c.body(null, 204);
    })
    .openapi(routes.me, async (c) => c.json(await me(sessionOf(c)), 200))
    .openapi(routes.changePassword, async (c) => {
      const result = await changePassword.execute(sessionOf(c), c.req.valid('json'));
      if (result.outcome === 'throttled') return throttled(c, result.retryAfterSeconds);
      return c.body(null, 204);
    });
}
