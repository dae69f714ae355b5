import type { Credentials } from './integration';

/** What a provider says happened to a message after it accepted it. */
export type ReceiptEvent = 'delivered' | 'bounced' | 'failed' | 'opened' | 'clicked' | 'deferred' | 'other';

/** One event of a provider's callback, read from a request whose signature was verified. */
export interface DeliveryReceipt {
  /** Stable per event at the provider (its event id, or message id + event): a second delivery of it is a duplicate. */
  receiptId: string;
  /** The id the provider answered the send with: `messages.provider_message_id`. */
  providerMessageId: string;
  event: ReceiptEvent;
  /** The provider's own word for the event and its reason, for the execution detail. */
  detail: string;
  /** The event as the provider sent it (JSON), kept on the execution detail. */
  raw: string;
}

/** A provider's call to the receipt route, as it arrived: the signature covers these bytes. */
export interface InboundReceiptRequest {
  /** The full URL the provider called (Twilio signs it). */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** What reading a call gave: receipts to apply, or why it is refused (never applied). */
export type ReceiptReading = { verified: true; receipts: DeliveryReceipt[] } | { verified: false; reason: string };

/** The integration a receipt route names, with what verification needs. */
export interface ReceiptIntegration {
  id: string;
  environmentId: string;
  providerId: string;
  credentials: Credentials;
}

/** How one receipt ended: applied to its message, already applied before, or no message of this integration has its id. */
export type ReceiptOutcome = 'applied' | 'duplicate' | 'unmatched';
