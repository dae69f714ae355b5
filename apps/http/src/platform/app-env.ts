import type { Caller, SubscriberClaims, Token } from '@herald/domain';
import type { Logger } from 'pino';

/** Hono variables every handler can read. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set by the API-key middleware on every authenticated route. */
    caller: Caller;
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
