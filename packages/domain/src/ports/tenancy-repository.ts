import { token } from '../shared/token';
import type { RetryPolicy } from '../entities/retry-policy';
import type { ApiKeyRecord, BridgeRegistration, Caller, Environment, EnvironmentSettings, Organization } from '../entities/tenancy';

export const TenancyRepository = token<TenancyRepository>('TenancyRepository');

export interface BootstrapSpec {
  organizationName: string;
  /** inboxHmac left out: on (the secure default). */
  environments: Array<{ name: string; slug: string; signingSecret: string; inboxHmac?: boolean }>;
}

export interface TenancyRepository {
  /** The caller owning an unrevoked key with that hash, or null. */
  findCallerByKeyHash(keyHash: string): Promise<Caller | null>;
  /**
   * Creates the organization and its environments unless one exists. Atomic and safe when several
   * processes call it at once: exactly one organization results. `created` says whether this call made it.
   */
  bootstrap(spec: BootstrapSpec): Promise<{ organization: Organization; environments: Environment[]; created: boolean }>;
  /** Every environment of the installation, oldest first. */
  listEnvironments(): Promise<Environment[]>;
  /** The organization with that id, or null. */
  findOrganization(organizationId: string): Promise<Organization | null>;
  /** null when no environment has that id (an authenticated caller's own, never a client's string). */
  findEnvironment(environmentId: string): Promise<Environment | null>;
  /** Stores the environment's provider retry policy (the fields it overrides); null returns it to the service default. */
  setRetryPolicy(environmentId: string, policy: Partial<RetryPolicy> | null): Promise<void>;
  /** The environment with that public application identifier, or null. */
  findEnvironmentByIdentifier(publicIdentifier: string): Promise<Environment | null>;
  /** Records the bridge synced into the environment (replacing any earlier one). */
  setBridge(environmentId: string, bridge: BridgeRegistration): Promise<void>;
  /**
   * Applies the defined settings (`retentionDays: null` clears it); null when the environment does
   * not exist. A change of `inboxHmac` or `corsOrigins` raises `inboxSecurityVersion` in the same
   * write (setting a value it already has does not; `retentionDays` never does).
   */
  updateEnvironment(environmentId: string, settings: EnvironmentSettings): Promise<Environment | null>;
  /**
   * Idempotent on the hash: adding a key that exists returns the existing record. The secret, when
   * given, is kept encrypted at rest (inbox HMAC checks need it); an existing key without one gets it.
   */
  addApiKey(environmentId: string, keyHash: string, hint: string, secret?: string): Promise<ApiKeyRecord>;
  /** The secrets of the environment's unrevoked keys that were stored with one, decrypted. */
  apiKeySecrets(environmentId: string): Promise<string[]>;
  /** The environment's keys, revoked ones too. */
  listApiKeys(environmentId: string): Promise<ApiKeyRecord[]>;
  /** false when no unrevoked key has that id (in `environmentId`, when given). */
  revokeApiKey(apiKeyId: string, environmentId?: string): Promise<boolean>;
}
