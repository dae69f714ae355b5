import { token } from '../shared/token';
import type { Credentials } from '../entities/integration';
import type { InboundReceiptRequest, ReceiptOutcome, ReceiptReading } from '../entities/delivery-receipt';

export const ReceiptReaders = token<ReceiptReaders>('ReceiptReaders');

/** Verifies one provider's callback with its own signature scheme and reads the events in it. */
export interface ReceiptReader {
  /** Never throws on a provider's payload: a malformed or unsigned call is `verified: false`. */
  read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading>;
}

/** The readers of the providers whose receipts Herald takes, by provider id. */
export interface ReceiptReaders {
  /** null when the provider sends no receipts Herald can verify. */
  forProvider(providerId: string): ReceiptReader | null;
}

export const ReceiptObserver = token<ReceiptObserver>('ReceiptObserver');

/** Told how each call to the receipt route ended (metrics); must be cheap and must not throw. */
export interface ReceiptObserver {
  received(providerId: string, outcome: ReceiptOutcome | 'rejected' | 'unknown_integration'): void;
}


