import type { AuthenticateApiKey } from '@herald/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';

/** Every route behind this middleware requires `Authorization: ApiKey <key>` and is scoped to its environment. */
export function apiKeyAuth(authenticate: AuthenticateApiKey): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('caller', await authenticate.execute(c.req.header('authorization')));
    await next();
  };
}
