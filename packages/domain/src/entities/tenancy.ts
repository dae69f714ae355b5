import type { RetryPolicy } from './retry-policy';

export interface Organization {
  id: string;
  name: string;
  idempotencyEnabled: boolean;
}

export interface Environment {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  /** HMAC secret for outbound signatures. */
  signingSecret: string;
  /** Provider retry policy; null: the service default. */
  retryPolicy?: RetryPolicy | null;
  /** Public application identifier of the browser Inbox (not a secret). */
  publicIdentifier: string;
  /** Inbox sessions must prove the subscriber id with an HMAC made with one of the environment's secret keys. */
  inboxHmac: boolean;
  /** Browser origins allowed to call the subscriber inbox API. */
  corsOrigins: string[];
  /** The bridge last synced into the environment; null (or absent) before any sync. */
  bridge?: BridgeRegistration | null;
  /**
   * Goes up whenever the Inbox security (`inboxHmac`, `corsOrigins`) changes. A subscriber token
   * carries the version it was issued under; one issued under an older version is refused.
   */
  inboxSecurityVersion: number;
  /** Days its delivery history is kept; null (or absent): the service default. */
  retentionDays?: number | null;
}

/** Where an environment's code-defined workflows run, and which of its API keys signs the calls. */
export interface BridgeRegistration {
  url: string;
  /** sha256 of the key that synced the bridge (the bridge verifies signatures with that secret key). */
  keyHash: string;
}

/** What the operator may change on an environment. */
export interface EnvironmentSettings {
  inboxHmac?: boolean;
  corsOrigins?: string[];
  /** Days its delivery history is kept; null returns it to the service default. */
  retentionDays?: number | null;
}

export interface ApiKeyRecord {
  id: string;
  environmentId: string;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Who is calling: every read and write is scoped to `environmentId`. */
export interface Caller {
  organizationId: string;
  environmentId: string;
  idempotencyEnabled: boolean;
}

/** Production's Inbox requires the subscriber HMAC from the start; Development keeps the quick start open. */
export const DEFAULT_ENVIRONMENTS = [
  { name: 'Development', slug: 'development', inboxHmac: false },
  { name: 'Production', slug: 'production', inboxHmac: true },
] as const;
