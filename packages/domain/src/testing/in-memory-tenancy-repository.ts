import { randomUUID } from 'node:crypto';
import type { RetryPolicy } from '../entities/retry-policy';
import type { ApiKeyRecord, BridgeRegistration, Environment, EnvironmentSettings, Organization } from '../entities/tenancy';
import type { BootstrapSpec, TenancyRepository } from '../ports/tenancy-repository';

interface KeyRow extends ApiKeyRecord {
  keyHash: string;
  secret: string | null;
}

/**
 * The TenancyRepository double: one installation's organization, environments and API keys in
 * memory (secrets kept as given: memory is not at rest). `tenancy-repository-contract.ts` holds it
 * to the SQL adapter's behaviour.
 */
export class InMemoryTenancyRepository implements TenancyRepository {
  readonly organizations: Array<Organization & { createdAt: Date }> = [];
  readonly environments: Array<Environment & { createdAt: Date }> = [];
  readonly keys: KeyRow[] = [];

  private publish = ({ createdAt: _, ...environment }: Environment & { createdAt: Date }): Environment => structuredClone(environment);

  async findCallerByKeyHash(keyHash: string) {
    const key = this.keys.find((k) => k.keyHash === keyHash && !k.revokedAt);
    const environment = key && this.environments.find((e) => e.id === key.environmentId);
    const organization = environment && this.organizations.find((o) => o.id === environment.organizationId);
    return organization ? { environmentId: environment.id, organizationId: organization.id, idempotencyEnabled: organization.idempotencyEnabled } : null;
  }

  async bootstrap(spec: BootstrapSpec) {
    // Single-threaded: no other call runs between the check and the writes, as the adapter's lock ensures.
    let organization = this.organizations[0];
    const created = !organization;
    if (!organization) {
      organization = { id: randomUUID(), name: spec.organizationName, idempotencyEnabled: true, createdAt: new Date() };
      this.organizations.push(organization);
      for (const e of spec.environments) {
        this.environments.push({
          ...e,
          id: randomUUID(),
          organizationId: organization.id,
          retryPolicy: null,
          publicIdentifier: `pk_${randomUUID().replaceAll('-', '')}`,
          inboxHmac: e.inboxHmac ?? true,
          corsOrigins: [],
          inboxSecurityVersion: 0,
          bridge: null,
          retentionDays: null,
          createdAt: organization.createdAt,
        });
      }
    }
    const environments = this.environments.filter((e) => e.organizationId === organization.id).map(this.publish);
    return { organization: { id: organization.id, name: organization.name, idempotencyEnabled: organization.idempotencyEnabled }, environments, created };
  }

  async listEnvironments() {
    return [...this.environments].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.slug.localeCompare(b.slug)).map(this.publish);
  }

  async findOrganization(organizationId: string) {
    const organization = this.organizations.find((o) => o.id === organizationId);
    return organization ? { id: organization.id, name: organization.name, idempotencyEnabled: organization.idempotencyEnabled } : null;
  }

  async findEnvironment(environmentId: string) {
    const environment = this.environments.find((e) => e.id === environmentId);
    return environment ? this.publish(environment) : null;
  }

  async setRetryPolicy(environmentId: string, policy: Partial<RetryPolicy> | null) {
    const environment = this.environments.find((e) => e.id === environmentId);
    if (!environment) throw new Error(`environment ${environmentId} does not exist`);
    environment.retryPolicy = structuredClone(policy) as RetryPolicy | null;
  }

  async setBridge(environmentId: string, bridge: BridgeRegistration) {
    const environment = this.environments.find((e) => e.id === environmentId);
    if (!environment) throw new Error(`environment ${environmentId} does not exist`);
    environment.bridge = { ...bridge };
  }

  async findEnvironmentByIdentifier(publicIdentifier: string) {
    const environment = this.environments.find((e) => e.publicIdentifier === publicIdentifier);
    return environment ? this.publish(environment) : null;
  }

  async updateEnvironment(environmentId: string, settings: EnvironmentSettings) {
    const environment = this.environments.find((e) => e.id === environmentId);
    if (!environment) return null;
    const securityBefore = JSON.stringify([environment.inboxHmac, environment.corsOrigins]);
    for (const [key, value] of Object.entries(settings)) if (value !== undefined) Object.assign(environment, { [key]: structuredClone(value) });
    if (JSON.stringify([environment.inboxHmac, environment.corsOrigins]) !== securityBefore) environment.inboxSecurityVersion++;
    return this.publish(environment);
  }

  async addApiKey(environmentId: string, keyHash: string, hint: string, secret?: string) {
    let key = this.keys.find((k) => k.keyHash === keyHash);
    if (!key) {
      key = { id: randomUUID(), environmentId, hint, keyHash, secret: null, createdAt: new Date(), revokedAt: null };
      this.keys.push(key);
    }
    key.secret ??= secret ?? null;
    return this.record(key);
  }

  async apiKeySecrets(environmentId: string) {
    return this.keys.filter((k) => k.environmentId === environmentId && !k.revokedAt && k.secret !== null).map((k) => k.secret!);
  }

  async listApiKeys(environmentId: string) {
    return this.keys.filter((k) => k.environmentId === environmentId).map((k) => this.record(k));
  }

  async revokeApiKey(apiKeyId: string, environmentId?: string) {
    const key = this.keys.find((k) => k.id === apiKeyId && !k.revokedAt && (environmentId === undefined || k.environmentId === environmentId));
    if (key) key.revokedAt = new Date();
    return Boolean(key);
  }

  private record({ id, environmentId, hint, createdAt, revokedAt }: KeyRow): ApiKeyRecord {
    return { id, environmentId, hint, createdAt, revokedAt };
  }
}
