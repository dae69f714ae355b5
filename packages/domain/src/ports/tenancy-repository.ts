import type { RetryPolicy } from '../entities/retry-policy';
import type { ApiKeyRecord, Caller, Environment, Organization } from '../entities/tenancy';

export const TenancyRepository = Symbol.for('TenancyRepository');

export interface BootstrapSpec {
  organizationName: string;
  environments: Array<{ name: string; slug: string; signingSecret: string }>;
}

export interface TenancyRepository {
  /** The caller owning an unrevoked key with that hash, or null. */
  findCallerByKeyHash(keyHash: string): Promise<Caller | null>;
  /**
   * Creates the organization and its environments unless one exists. Atomic and safe when several
   * processes call it at once: exactly one organization results. `created` says whether this call made it.
   */
  bootstrap(spec: BootstrapSpec): Promise<{ organization: Organization; environments: Environment[]; created: boolean }>;
  listEnvironments(): Promise<Environment[]>;
  findEnvironment(environmentId: string): Promise<Environment | null>;
  /** Stores the environment's provider retry policy (the fields it overrides); null returns it to the service default. */
  setRetryPolicy(environmentId: string, policy: Partial<RetryPolicy> | null): Promise<void>;
  /** Idempotent on the hash: adding a key that exists returns the existing record. */
  addApiKey(environmentId: string, keyHash: string, hint: string): Promise<ApiKeyRecord>;
  listApiKeys(environmentId: string): Promise<ApiKeyRecord[]>;
  /** false when no unrevoked key has that id. */
  revokeApiKey(apiKeyId: string): Promise<boolean>;
}
