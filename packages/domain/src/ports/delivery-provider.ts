import { token } from '../shared/token';
import type { ChannelType } from '../entities/channel';
import type { Credentials } from '../entities/integration';

export const ProviderRegistry = token<ProviderRegistry>('ProviderRegistry');

/** A rendered message on its way to one recipient through one provider. */
export interface OutboundMessage {
  channel: ChannelType;
  to: {
    email?: string;
    phone?: string;
    webhookUrl?: string;
    deviceTokens?: string[];
    /** A chat channel or user id (a Slack channel endpoint). */
    chatChannel?: string;
    subscriberId: string;
  };
  subject?: string;
  body: string;
  /** Structured extras a provider may use (push data, chat blocks, the trigger payload for webhooks). */
  data?: Record<string, unknown>;
  transactionId: string;
  /** Stable across retries of the same job: providers that accept an idempotency key get it. */
  idempotencyKey: string;
  /**
   * The trigger's overrides for this channel, with those for this provider on top (`overrides.email`,
   * then `overrides.providers.<providerId>`): from, replyTo, cc, bcc, headers, senderName; sms from;
   * push data, sound, title.
   */
  overrides: Record<string, unknown>;
  /** Account access for this recipient (a chat connection's bot token); never stored with the message. */
  auth?: { accessToken: string };
}

export interface ProviderReceipt {
  /** The provider's id for the message, when it gives one. */
  providerMessageId?: string;
  /** Raw response, kept in the execution detail for debugging (secrets redacted). */
  raw?: string;
  /** Device tokens the provider reported as no longer valid; the engine removes them from the subscriber. */
  invalidDeviceTokens?: string[];
}

/**
 * Thrown by a provider, normalised from whatever its SDK threw: `retryable` says whether another
 * attempt may succeed (timeouts, connection errors, 429, 5xx); permanent ones (invalid credentials,
 * invalid recipient) are not retried on the same integration.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The provider's answer, secrets redacted. */
    readonly raw?: string,
    /** invalidDeviceTokens: push tokens the provider reported invalid (removed even when the send failed). */
    readonly extra: { code?: string; retryAfterMs?: number; invalidDeviceTokens?: string[] } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** How the engine sends through one integration, for providers that keep connections (an SMTP pool). */
export interface SendOptions {
  /** The integration's bound on sends in flight at once in this process: a pool keeps no more connections. */
  maxConnections?: number;
}

/** One provider implementation (a real SDK, a webhook, or a local sink). */
export interface DeliveryProvider {
  send(message: OutboundMessage, credentials: Credentials, options?: SendOptions): Promise<ProviderReceipt>;
}

export interface ProviderRegistry {
  /** The implementation for a providerId, or null when this build cannot send through it. */
  get(providerId: string): DeliveryProvider | null;
}
