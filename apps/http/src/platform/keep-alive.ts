import type { ServerType } from '@hono/node-server';

/**
 * How long an idle keep-alive connection stays open (Node's default is 5 s). Clients pool
 * connections and reuse them; one that sends on a connection at the moment the server closes it for
 * idleness gets "other side closed" instead of an answer. The window is at the end of the server's
 * timeout, so a 5 s one is hit by any client that pauses about 5 s between requests (a test that
 * waited on a child process, a proxy that keeps its pool longer). Clients that read the advertised
 * `Keep-Alive: timeout=65` close first; proxies commonly keep 60 s.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepIdleConnections(server: ServerType): void {
  if (!('keepAliveTimeout' in server)) return;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Longer than the keep-alive, so that a request arriving on a kept connection is not cut short.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
