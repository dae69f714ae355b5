import type { DeliveryProvider, HttpClient, ReceiptReader } from '@herald/domain';

/** What the registry gives a provider when it builds it: operator settings only, never tenant input. */
export interface ProviderKit {
  /** Outbound HTTP that refuses private, loopback and link-local addresses unless HERALD_ALLOW_PRIVATE_NETWORKS. */
  http: HttpClient;
  /** The operator's base URL for this provider id (HERALD_PROVIDER_ENDPOINTS): sandboxes, proxies, loopback fakes. */
  endpoint?: string;
  /** Whether tenant-set hosts (an SMTP server) may be private addresses. */
  allowPrivateNetworks: boolean;
  /** SERVICE_NAME: the built-in sinks and the webhook signature header carry it. */
  serviceName: string;
  /** The deadline of one call to the provider; a send that runs past it is a transient failure. */
  timeoutMs: number;
}

/** What a provider's receipt reader is built with: operator settings only, like the ProviderKit. */
export interface ReceiptKit {
  /** Outbound HTTP behind the same guard (SNS signing certificates, subscription confirmations). */
  http: HttpClient;
  /** HERALD_SNS_TRUSTED_ORIGIN: a stand-in SNS (tests) whose certificates are trusted instead of AWS's; unset in production. */
  snsTrustedOrigin?: string;
}

/** A provider the registry can build; `close` frees what it keeps between sends (SDK apps, pools). */
export type BuiltProvider = DeliveryProvider & { close?(): Promise<void> };

/**
 * One provider id this build sends through. Its channel and credential fields come from the domain's
 * catalogue (`credentialFields`), so a definition says only how it sends.
 */
export interface ProviderDefinition {
  /** The provider id as the interface writes it (`svc-email` for the service's own outbox). */
  id: string;
  /** What it sends through, for the README's table: the SDK package, or the documented HTTP API. */
  through: string;
  create(kit: ProviderKit): BuiltProvider;
  /**
   * Verifies and reads the delivery receipts this provider sends to the receipt route, with its own
   * signature scheme; absent when it sends none Herald takes. The verification secrets are
   * credential fields of the provider (the domain's catalogue), encrypted at rest like the others.
   */
  receipts?(kit: ReceiptKit): ReceiptReader;
}

/** Identity, for type checking a provider file's export. */
export function defineProvider(definition: ProviderDefinition): ProviderDefinition {
  return definition;
}
