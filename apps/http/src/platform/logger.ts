import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import pino, { type Logger } from 'pino';
import type { AppEnv } from './app-env';

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { pid: process.pid } });
}

/** Request id (honours an incoming X-Request-Id) and one structured log line per request. */
export function requestLogging(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && incoming.length <= 128 ? incoming : randomUUID();
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('logger', logger.child({ requestId }));
    // Set before the response exists: a header added to a finished response makes Hono copy it.
    c.header('X-Request-Id', requestId);
    await next();
    const status = c.res.status;
    logger[status >= 500 ? 'error' : 'info'](
      { requestId, method: c.req.method, path: c.req.path, status, durationMs: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  };
}
