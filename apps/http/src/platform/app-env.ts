import type { Caller } from '@herald/domain';
import type { Logger } from 'pino';

/** Hono variables every handler can read. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set by the API-key middleware on every authenticated route. */
    caller: Caller;
  };
};

/** What route modules need from the composition root: a way to get a use case by its token. */
export interface Resolver {
  get<T>(token: symbol | (new (...args: any[]) => T)): T;
}
