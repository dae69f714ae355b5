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

export const DEFAULT_ENVIRONMENTS = [
  { name: 'Development', slug: 'development' },
  { name: 'Production', slug: 'production' },
] as const;
