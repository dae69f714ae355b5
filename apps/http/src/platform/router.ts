import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './app-env';
import { defaultHook } from './default-hook';

/** Every route module builds on this, so zod failures share one 422 body. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ strict: false, defaultHook });
}

export type Router = ReturnType<typeof createRouter>;
