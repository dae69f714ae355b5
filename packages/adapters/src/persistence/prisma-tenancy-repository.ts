import type { ApiKeyRecord, BootstrapSpec, BridgeRegistration, Caller, CredentialCipher, Environment, EnvironmentSettings, Organization, RetryPolicy, TenancyRepository } from '@herald/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { isUuid } from './sql-params';

const BOOTSTRAP_LOCK = 72_616_002;

export class PrismaTenancyRepository implements TenancyRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** Encrypts API key secrets at rest; without one, secrets are not kept (inbox HMAC then has no key to check with). */
    private readonly cipher?: CredentialCipher,
  ) {}

  async findCallerByKeyHash(keyHash: string): Promise<Caller | null> {
    const key = await this.prisma.apiKey.findFirst({
      where: { keyHash, revokedAt: null },
      select: { environment: { select: { id: true, organization: { select: { id: true, idempotencyEnabled: true } } } } },
    });
    if (!key) return null;
    const { environment } = key;
    return {
      environmentId: environment.id,
      organizationId: environment.organization.id,
      idempotencyEnabled: environment.organization.idempotencyEnabled,
    };
  }

  bootstrap(spec: BootstrapSpec) {
    return this.prisma.$transaction(async (tx) => {
      // Serialises concurrent first starts: the loser sees the winner's organization.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`;
      const existing = await tx.organization.findFirst({ orderBy: { createdAt: 'asc' }, include: { environments: true } });
      if (existing) {
        const { environments, ...organization } = existing;
        return { organization, environments: environments.map(toEnvironment), created: false };
      }
      const { environments, ...organization } = await tx.organization.create({
        data: { name: spec.organizationName, environments: { create: spec.environments } },
        include: { environments: true },
      });
      return { organization, environments: environments.map(toEnvironment), created: true };
    });
  }

  async listEnvironments(): Promise<Environment[]> {
    // Created in one statement, the default two share created_at: slug order puts Development first.
    return (await this.prisma.environment.findMany({ orderBy: [{ createdAt: 'asc' }, { slug: 'asc' }] })).map(toEnvironment);
  }

  async findOrganization(organizationId: string): Promise<Organization | null> {
    if (!isUuid(organizationId)) return null;
    return this.prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true, idempotencyEnabled: true } });
  }

  async findEnvironment(environmentId: string): Promise<Environment | null> {
    const row = await this.prisma.environment.findUnique({ where: { id: environmentId } });
    return row && toEnvironment(row);
  }

  async setRetryPolicy(environmentId: string, policy: Partial<RetryPolicy> | null): Promise<void> {
    await this.prisma.environment.update({ where: { id: environmentId }, data: { retryPolicy: policy ?? Prisma.DbNull } });
  }

  async setBridge(environmentId: string, bridge: BridgeRegistration): Promise<void> {
    await this.prisma.environment.update({ where: { id: environmentId }, data: { bridgeUrl: bridge.url, bridgeKeyHash: bridge.keyHash } });
  }

  async findEnvironmentByIdentifier(publicIdentifier: string): Promise<Environment | null> {
    const row = await this.prisma.environment.findUnique({ where: { publicIdentifier } });
    return row && toEnvironment(row);
  }

  async updateEnvironment(environmentId: string, settings: EnvironmentSettings): Promise<Environment | null> {
    if (!isUuid(environmentId)) return null;
    const hmac = settings.inboxHmac ?? null;
    const origins = settings.corsOrigins ?? null;
    const setRetention = settings.retentionDays !== undefined;
    const retention = settings.retentionDays ?? null;
    // One statement: the version goes up exactly when a value changes, also under concurrent changes.
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE environments SET
        inbox_hmac = COALESCE(${hmac}::boolean, inbox_hmac),
        cors_origins = COALESCE(${origins}::text[], cors_origins),
        retention_days = CASE WHEN ${setRetention}::boolean THEN ${retention}::integer ELSE retention_days END,
        inbox_security_version = inbox_security_version + CASE
          WHEN inbox_hmac IS DISTINCT FROM COALESCE(${hmac}::boolean, inbox_hmac)
            OR cors_origins IS DISTINCT FROM COALESCE(${origins}::text[], cors_origins) THEN 1 ELSE 0 END
      WHERE id = ${environmentId}::uuid
      RETURNING id`;
    return rows.length ? this.findEnvironment(environmentId) : null;
  }

  async addApiKey(environmentId: string, keyHash: string, hint: string, secret?: string): Promise<ApiKeyRecord> {
    const secretEncrypted = secret && this.cipher ? this.cipher.encrypt({ secret }) : undefined;
    const record = await this.prisma.apiKey.upsert({
      where: { keyHash },
      create: { environmentId, keyHash, hint, secretEncrypted },
      update: {},
      select: apiKeySelect,
    });
    if (secretEncrypted) await this.prisma.apiKey.updateMany({ where: { keyHash, secretEncrypted: null }, data: { secretEncrypted } });
    return record;
  }

  async apiKeySecrets(environmentId: string): Promise<string[]> {
    if (!this.cipher || !isUuid(environmentId)) return [];
    const rows = await this.prisma.apiKey.findMany({ where: { environmentId, revokedAt: null, secretEncrypted: { not: null } }, select: { secretEncrypted: true } });
    const cipher = this.cipher;
    return rows.map((r) => String(cipher.decrypt(r.secretEncrypted!).secret));
  }

  listApiKeys(environmentId: string): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ where: { environmentId }, orderBy: { createdAt: 'asc' }, select: apiKeySelect });
  }

  async revokeApiKey(apiKeyId: string, environmentId?: string): Promise<boolean> {
    if (!isUuid(apiKeyId) || (environmentId !== undefined && !isUuid(environmentId))) return false;
    const { count } = await this.prisma.apiKey.updateMany({ where: { id: apiKeyId, revokedAt: null, ...(environmentId && { environmentId }) }, data: { revokedAt: new Date() } });
    return count === 1;
  }
}

const apiKeySelect = { id: true, environmentId: true, hint: true, createdAt: true, revokedAt: true } as const;

type EnvironmentRow = Omit<Environment, 'retryPolicy' | 'bridge'> & { retryPolicy?: unknown; bridgeUrl?: string | null; bridgeKeyHash?: string | null };

function toEnvironment(row: EnvironmentRow): Environment {
  const { id, organizationId, name, slug, signingSecret, publicIdentifier, inboxHmac, corsOrigins, inboxSecurityVersion } = row;
  const retryPolicy = (row.retryPolicy ?? null) as Environment['retryPolicy'];
  const bridge = row.bridgeUrl && row.bridgeKeyHash ? { url: row.bridgeUrl, keyHash: row.bridgeKeyHash } : null;
  const retentionDays = row.retentionDays ?? null;
  return { id, organizationId, name, slug, signingSecret, publicIdentifier, inboxHmac, corsOrigins, inboxSecurityVersion, retryPolicy, bridge, retentionDays };
}
