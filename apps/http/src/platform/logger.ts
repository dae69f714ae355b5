import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import pino, { type Logger } from 'pino';
import { routeTemplate } from '../observability/http-metrics';
import type { AppEnv } from './app-env';

/**
 * JSON lines, or with `format` 'pretty' coloured lines for a person at a terminal (pino-pretty,
 * in-process, loaded only then: its 38 modules cost 40 ms of a start).
 */
export async function createLogger(level: string, name: string, format: 'json' | 'pretty' = 'json'): Promise<Logger> {
  const options = { level, name, base: { pid: process.pid } };
  if (format === 'json') return pino(options);
  const { default: pretty } = await import('pino-pretty');
  return pino(options, pretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid' }));
}

/** Routes polled by machines or called at high rates: their request lines are debug, not info. */
const QUIET_ROUTES = new Set(['/v1/health-check', '/v1/health-check/ready', '/metrics', '/v1/events/trigger']);

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
    const level = status >= 500 ? 'error' : status < 400 && QUIET_ROUTES.has(routeTemplate(c)) ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      { requestId, method: c.req.method, path: c.req.path, status, durationMs: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  };
}
