import { createHash, timingSafeEqual } from 'node:crypto';
import type { DeliveryReceipt, ReceiptReading } from '@herald/domain';

/** A refused call: never applied, answered 401. */
export function rejected(reason: string): ReceiptReading {
  return { verified: false, reason };
}

export function verified(receipts: DeliveryReceipt[]): ReceiptReading {
  return { verified: true, receipts };
}

/**
 * Constant-time comparison of a signature or secret a caller gave with the expected one. Both are
 * hashed to 32 bytes first, so the time taken tells neither the expected value nor its length
 * (Postmark's basic auth password is the secret itself, not a fixed-length digest).
 */
export function sameSignature(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** JSON the provider sent, or undefined: a payload that does not parse is refused, never a 500. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A string field of a provider's object, or '' (providers add, drop and retype fields). */
export function text(value: unknown, key: string): string {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' ? field : typeof field === 'number' ? String(field) : '';
}

/** A nested object field, or undefined. */
export function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  const field = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return field && typeof field === 'object' && !Array.isArray(field) ? (field as Record<string, unknown>) : undefined;
}
