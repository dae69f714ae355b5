import type { ChannelType } from '../entities/channel';
import type { Credentials } from '../entities/integration';

export const ProviderRegistry = Symbol.for('ProviderRegistry');

/** A rendered message on its way to one recipient through one provider. */
export interface OutboundMessage {
  channel: ChannelType;
  to: { email?: string; phone?: string; webhookUrl?: string; deviceTokens?: string[]; subscriberId: string };
  subject?: string;
  body: string;
  /** Structured extras a provider may use (push data, chat blocks, the trigger payload for webhooks). */
  data?: Record<string, unknown>;
  transactionId: string;
}

export interface ProviderReceipt {
  /** The provider's id for the message, when it gives one. */
  providerMessageId?: string;
  /** Raw response, kept in the execution detail for debugging. */
  raw?: string;
}

/** Thrown by a provider; `retryable` says whether another attempt or another integration may succeed. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly raw?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** One provider implementation (a real SDK, a webhook, or a local sink). */
export interface DeliveryProvider {
  send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt>;
}

export interface ProviderRegistry {
  /** The implementation for a providerId, or null when this build cannot send through it. */
  get(providerId: string): DeliveryProvider | null;
}
