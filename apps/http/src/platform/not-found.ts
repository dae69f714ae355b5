import type { Context, Hono } from 'hono';
import { errorBody } from './errors';

/**
 * The answer for a request no route takes: 405 with `Allow` when the path exists under other
 * methods only, else 404 (also what a handler's `c.notFound()` gives); both in the API's error shape. Route patterns are compiled on first use, after
 * every route is registered.
 */
export function notFoundHandler(app: Pick<Hono, 'routes'>) {
  let patterns: Array<{ method: string; pattern: RegExp }> | undefined;
  const compile = () =>
    app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`) }));
  return (c: Context) => {
    patterns ??= compile();
    const allowed = [...new Set(patterns.filter((p) => p.pattern.test(c.req.path)).map((p) => p.method))];
    if (allowed.length && !allowed.includes(c.req.method)) {
      return c.json(errorBody(c, 405, `Cannot ${c.req.method} ${c.req.path}; allowed: ${allowed.join(', ')}`), 405, { Allow: allowed.join(', ') });
    }
    return c.json(errorBody(c, 404, `Cannot ${c.req.method} ${c.req.path}`), 404);
  };
}
