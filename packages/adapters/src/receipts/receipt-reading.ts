import { timingSafeEqual } from 'node:crypto';
import type { DeliveryReceipt, ReceiptReading } from '@herald/domain';

/** A refused call: never applied, answered 401. */
export function rejected(reason: string): ReceiptReading {
  return { verified: false, reason };
}

export function verified(receipts: DeliveryReceipt[]): ReceiptReading {
  return { verified: true, receipts };
}

/** Constant-time comparison of two signatures as text; different lengths are simply unequal. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
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
