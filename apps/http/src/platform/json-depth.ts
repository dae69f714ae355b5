import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';
import { errorBody } from './errors';

/** Deepest nesting of objects and arrays a request body may have; deeper bodies are refused unparsed. */
export const MAX_JSON_DEPTH = 64;

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

/**
 * The nesting depth of JSON text, counted without parsing: brackets inside strings do not count.
 * Stops counting once `limit` is passed. Malformed text gets some number; the parser refuses it later.
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) inString = true;
    else if (OPEN.has(ch)) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (CLOSE.has(ch)) depth--;
  }
  return deepest;
}

/**
 * Every JSON body is measured before anything parses it: recursion over a body nested 20,000 levels
 * deep (validation, error reporting, storage) would overflow the stack. Hono caches the text read
 * here, so the route's validator parses the same copy.
 */
export function jsonDepthLimit(maxDepth = MAX_JSON_DEPTH): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !JSON_TYPE.test(c.req.header('content-type') ?? '')) return next();
    const text = await c.req.text();
    // A body shorter than the limit cannot nest deeper than it.
    if (text.length <= maxDepth || jsonDepth(text, maxDepth) <= maxDepth) return next();
    const message = `nests objects and arrays deeper than ${maxDepth} levels`;
    return c.json(errorBody(c, 422, `body: ${message}`, { code: 'VALIDATION_FAILED', errors: { body: { messages: [message] } } }), 422);
  };
}
