import { DomainError, type AuthenticateApiKey, type AuthorizeDashboardRequest, type DashboardSession } from '@herald/domain';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';
import { requestFacts, type RequestOrigins } from './request-origin';
import { clearSessionCookie, readSessionCookie } from './session-cookie';

/** The environment a dashboard session acts on, per request (an API key has its own). */
export const ENVIRONMENT_HEADER = 'Herald-Environment';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** POSTs that change nothing, which a viewer may send too: a step's preview renders without storing. */
const READ_ONLY_POSTS = [/^\/v2\/workflows\/[^/]+\/step\/[^/]+\/preview$/];

export const isSafeMethod = (method: string) => SAFE_METHODS.has(method);

/** FORBIDDEN unless a request that changes data comes from this service's own origin (CSRF). */
export function checkSameOrigin(c: Context, origins: RequestOrigins): void {
  if (!origins.sameOrigin(requestFacts(c))) {
    throw new DomainError('FORBIDDEN', "Cross-origin request refused: with a dashboard session, data changes only from the dashboard's own origin (Origin header)");
  }
}

/** UNAUTHORIZED from a session also clears its cookie, so the browser stops sending a dead token. */
export async function withSessionCookie<T>(c: Context, origins: RequestOrigins, authorize: () => Promise<T>): Promise<T> {
  try {
    return await authorize();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'UNAUTHORIZED') clearSessionCookie(c, origins);
    throw error;
  }
}

/**
 * Every /v1 and /v2 route: `Authorization: ApiKey <key>`, or else a dashboard session cookie with
 * `Herald-Environment: <environment id>`. For a session, and in this one place for every route: a
 * request other than GET must come from the service's own origin (CSRF), and a viewer may only read
 * (403; a step preview, a POST that stores nothing, is a read).
 */
export function callerAuth(deps: { apiKeys: AuthenticateApiKey; dashboard: AuthorizeDashboardRequest; origins: RequestOrigins }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const authorization = c.req.header('authorization');
    const token = authorization === undefined ? readSessionCookie(c) : undefined;
    if (token === undefined) {
      c.set('caller', await deps.apiKeys.execute(authorization));
      return next();
    }
    const changes = !isSafeMethod(c.req.method);
    if (changes) checkSameOrigin(c, deps.origins);
    const environmentId = c.req.header(ENVIRONMENT_HEADER);
    if (!environmentId) throw new DomainError('BAD_REQUEST', `A dashboard session names the environment it acts on: send ${ENVIRONMENT_HEADER}: <environment id>`);
    const { session, caller } = await withSessionCookie(c, deps.origins, () => deps.dashboard.execute(token, environmentId));
    const readOnly = c.req.method === 'POST' && READ_ONLY_POSTS.some((re) => re.test(c.req.path));
    if (changes && !readOnly && session.user.role !== 'admin') throw new DomainError('FORBIDDEN', 'Viewers can read but not change anything: ask an admin');
    c.set('caller', caller);
    c.set('dashboardSession', session);
    await next();
  };
}

/**
 * Routes that manage credentials and environment settings (API keys, inbox security, retry policy)
 * are for people: a dashboard admin, or the operator's command. An API key gets a 403, so a leaked
 * key cannot mint more keys or loosen its environment.
 */
export function dashboardAdminOnly(c: Context<AppEnv>, what: string): DashboardSession {
  const session = c.get('dashboardSession');
  if (!session) throw new DomainError('FORBIDDEN', `${what} needs a dashboard admin session (or \`pnpm herald\`), not an API key`);
  if (session.user.role !== 'admin') throw new DomainError('FORBIDDEN', `${what} is for admins`);
  return session;
}
