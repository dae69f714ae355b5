import type { ClaimIdempotencyKey } from '@herald/domain';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env';
import { errorBody, statusOf } from './errors';

const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * `idempotency-key` on a POST or PATCH: the first request runs and its response (success or error) is
 * stored; a retry gets that response back, a concurrent one a 409, another body a 422. Mounted after
 * the API-key middleware: only API-key callers whose organization has idempotency enabled take part.
 * Every other request, GET/PUT/DELETE included, passes through untouched.
 */
export function idempotency(claimKey: ClaimIdempotencyKey): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    const caller = c.get('caller');
    if (!key || !IDEMPOTENT_METHODS.has(c.req.method) || !caller?.idempotencyEnabled) return next();

    const url = new URL(c.req.url);
    const decision = await claimKey.execute({
      organizationId: caller.organizationId,
      key,
      method: c.req.method,
      path: url.pathname + url.search,
      // Hono caches the text; the route's JSON validator parses the same copy.
      body: await c.req.text(),
    });

    if (decision.outcome === 'reject') {
      const { error, retryAfterSeconds } = decision;
      const status = statusOf(error.code);
      const res = c.json(errorBody(c, status, error.message, { code: error.code }), status);
      res.headers.set('Idempotency-Key', key);
      if (retryAfterSeconds !== undefined) res.headers.set('Retry-After', String(retryAfterSeconds));
      return res;
    }

    if (decision.outcome === 'replay') {
      const { statusCode, body, contentType } = decision.response;
      const headers: Record<string, string> = { 'Idempotency-Key': key, 'Idempotency-Replay': 'true' };
      if (contentType) headers['Content-Type'] = contentType;
      // A stored 204 has an empty body, and a Response with a null-body status must not carry one.
      if (NULL_BODY_STATUSES.has(statusCode)) return c.body(null, statusCode as 204, headers);
      return c.body(body, statusCode as ContentfulStatusCode, headers);
    }

    // Hono's compose turns a handler's throw into app.onError's response before next() resolves,
    // so c.res is the final response here whether the request succeeded or failed.
    await next();
    const { status, headers } = c.res;
    const body = await c.res.text();
    c.res = new Response(NULL_BODY_STATUSES.has(status) ? null : body, { status, headers });
    c.header('Idempotency-Key', key);
    try {
      await decision.complete({ statusCode: status, body, contentType: headers.get('content-type') });
    } catch (err) {
      // The response still goes out; the key stays in progress until its marker lapses (5 minutes).
      c.get('logger')?.error({ err, idempotencyKey: key }, 'could not store the response of an idempotent request');
    }
  };
}
