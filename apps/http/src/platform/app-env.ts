import type { Caller, DashboardSession, SubscriberClaims, Token } from '@herald/domain';
import type { Logger } from 'pino';

/** Hono variables every handler can read. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set on every /v1 and /v2 route by the API key or the dashboard session that authorised it. */
    caller: Caller;
    /** The dashboard session behind the request, when a session (not an API key) authorised it. */
    dashboardSession: DashboardSession | undefined;
    /** Set by the subscriber-token middleware on the browser inbox routes (/v1/inbox/*). */
    subscriber: SubscriberClaims;
    /** The Origin of a cross-origin browser request to the inbox API, checked against the environment's list. */
    crossOrigin: string | undefined;
  };
};

/** What route modules need from the composition root: a way to get a use case by its token. */
export interface Resolver {
  get<T>(key: Token<T> | (abstract new (...args: any[]) => T)): T;
}
