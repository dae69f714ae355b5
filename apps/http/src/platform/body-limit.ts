import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Refuses request bodies over `maxSize` bytes. A body with a Content-Length is judged by that header
 * alone; hono's bodyLimit, which counts a chunked body while it streams, is used only for those:
 * it asks the request for its web-stream body, which makes @hono/node-server build a full `Request`
 * (AbortController, ReadableStream) on every call, about a tenth of a trigger's CPU when measured.
 */
export function requestBodyLimit(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    const chunked = c.req.header('transfer-encoding') !== undefined;
    const length = c.req.header('content-length');
    // Node's parser refuses a request that has both headers, and one with neither has no body.
    if (!chunked) return length !== undefined && Number(length) > maxSize ? onError(c) : next();
    return streamed(c, next);
  };
}
