import { token } from '../shared/token';
import type { DeliveryReceipt, ReceiptIntegration, ReceiptOutcome } from '../entities/delivery-receipt';

export const ReceiptRepository = token<ReceiptRepository>('ReceiptRepository');

/** A receipt to apply, with what follows from it for the message. */
export interface ReceiptChange {
  receipt: DeliveryReceipt;
  /** The message status it sets given the current one, or null when the status stays (opens, clicks). */
  status: (current: string) => string | null;
  detailStatus: 'Success' | 'Warning' | 'Failed';
}

/** Provider delivery receipts: the integration a call names, and their effect on its messages. */
export interface ReceiptRepository {
  /** A live (not deleted) integration by its internal id, credentials decrypted; null when none. */
  findIntegration(integrationId: string): Promise<ReceiptIntegration | null>;
  /**
   * Applies each receipt once, in one transaction per receipt: the message of THIS integration with
   * the receipt's provider message id gets its status and an execution detail (source Webhook).
   * A receipt id already applied for the integration is a duplicate and changes nothing; so is one
   * whose message is not found (`unmatched`, not remembered: the send may not be recorded yet).
   */
  apply(integration: ReceiptIntegration, changes: ReceiptChange[]): Promise<ReceiptOutcome[]>;
}
