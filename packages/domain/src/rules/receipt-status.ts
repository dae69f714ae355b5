import type { ReceiptEvent } from '../entities/delivery-receipt';

/** Message statuses a receipt can set; opens, clicks and deferrals leave the status as it is. */
const SETS: Partial<Record<ReceiptEvent, string>> = { delivered: 'delivered', bounced: 'bounced', failed: 'failed' };

/** Statuses a later receipt may not undo: a bounce or a failure is final, whatever arrives after it. */
const FINAL = new Set(['bounced', 'failed']);

/**
 * The message status after a receipt, or null when it stays. Receipts can arrive out of order
 * (a "delivered" after the "bounced" of a retry), so a final status is never overwritten.
 */
export function statusAfterReceipt(current: string, event: ReceiptEvent): string | null {
  const next = SETS[event];
  if (!next || next === current || FINAL.has(current)) return null;
  return next;
}

/** The execution detail status of a receipt: failures and bounces are Failed, deferrals a Warning. */
export function detailStatusOf(event: ReceiptEvent): 'Success' | 'Warning' | 'Failed' {
  if (event === 'bounced' || event === 'failed') return 'Failed';
  if (event === 'deferred') return 'Warning';
  return 'Success';
}
