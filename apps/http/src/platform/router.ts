import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './app-env';
import { defaultHook } from './default-hook';
import { strictRequest } from './strict-request';

/** Every route module builds on this, so zod failures share one 422 body and data-changing routes read strictly. */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({ strict: false, defaultHook });
  const register = router.openapi;
  router.openapi = ((route, handler, hook) => register(strictRequest(route), handler, hook)) as typeof router.openapi;
  return router;
}

export type Router = ReturnType<typeof createRouter>;
