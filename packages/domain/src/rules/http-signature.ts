import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature header value of an outbound HTTP request (http_request steps, webhooks):
 * `t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed with the environment's signing secret.
 * Signing the timestamp with the body lets a receiver reject replays of an old request.
 */
export function signRequestBody(secret: string, body: string, timestamp: number): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/** What a receiver does: recompute and compare in constant time; false for any malformed header. */
export function verifyRequestSignature(secret: string, body: string, header: string, toleranceMs = Infinity, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || typeof parts.v1 !== 'string' || Math.abs(now - timestamp) > toleranceMs) return false;
  const expected = Buffer.from(signRequestBody(secret, body, timestamp).split('v1=')[1], 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
