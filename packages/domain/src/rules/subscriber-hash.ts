import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of the subscriber id, hex: what a product's backend computes with its secret key. */
export function subscriberHash(secret: string, subscriberId: string): string {
  return createHmac('sha256', secret).update(subscriberId, 'utf8').digest('hex');
}

/** Whether `hash` was made from the subscriber id with one of the secrets (compared in constant time). */
export function subscriberHashMatches(secrets: readonly string[], subscriberId: string, hash: string | undefined): boolean {
  if (!hash || !/^[0-9a-f]{64}$/i.test(hash)) return false;
  const given = Buffer.from(hash.toLowerCase(), 'hex');
  return secrets.some((secret) => timingSafeEqual(Buffer.from(subscriberHash(secret, subscriberId), 'hex'), given));
}
