import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../platform/app-env';
import type { HeraldMetrics } from './metrics';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * The route template that answered (`/v2/subscribers/:subscriberId`), never the raw path, so label
 * values stay a bounded set; `unmatched` for paths no route serves. Middleware (registered for ALL
 * methods) is not a route.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i].method !== 'ALL') return routes[i].path;
  return 'unmatched';
}

/** Request duration by route template, method and status class; idempotent replays and conflicts. */
export function httpMetrics(metrics: HeraldMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    metrics.httpDuration.observe(
      { method: METHODS.has(c.req.method) ? c.req.method : 'OTHER', route: routeTemplate(c), status_class: `${Math.floor(status / 100)}xx` },
      (performance.now() - started) / 1000,
    );
    if (!c.req.header('idempotency-key')) return;
    if (c.res.headers.get('idempotency-replay') === 'true') metrics.idempotency.inc({ outcome: 'replayed' });
    // The idempotency middleware's own 409 (a request with this key is in progress) says when to retry.
    else if (status === 409 && c.res.headers.has('retry-after')) metrics.idempotency.inc({ outcome: 'conflict' });
  };
}
