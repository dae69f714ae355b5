import type { ApiKeyRecord, BootstrapSpec, Caller, Environment, RetryPolicy, TenancyRepository } from '@herald/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { isUuid } from './sql-params';

const BOOTSTRAP_LOCK = 72_616_002;

export class PrismaTenancyRepository implements TenancyRepository {
  constructor(private readonly prisma: PrismaClient) {}

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
    return (await this.prisma.environment.findMany({ orderBy: { createdAt: 'asc' } })).map(toEnvironment);
  }

  async findEnvironment(environmentId: string): Promise<Environment | null> {
    const row = await this.prisma.environment.findUnique({ where: { id: environmentId } });
    return row && toEnvironment(row);
  }

  async setRetryPolicy(environmentId: string, policy: Partial<RetryPolicy> | null): Promise<void> {
    await this.prisma.environment.update({ where: { id: environmentId }, data: { retryPolicy: policy ?? Prisma.DbNull } });
  }

  async addApiKey(environmentId: string, keyHash: string, hint: string): Promise<ApiKeyRecord> {
    return this.prisma.apiKey.upsert({
      where: { keyHash },
      create: { environmentId, keyHash, hint },
      update: {},
      select: apiKeySelect,
    });
  }

  listApiKeys(environmentId: string): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ where: { environmentId }, orderBy: { createdAt: 'asc' }, select: apiKeySelect });
  }

  async revokeApiKey(apiKeyId: string): Promise<boolean> {
    if (!isUuid(apiKeyId)) return false;
    const { count } = await this.prisma.apiKey.updateMany({ where: { id: apiKeyId, revokedAt: null }, data: { revokedAt: new Date() } });
    return count === 1;
  }
}

const apiKeySelect = { id: true, environmentId: true, hint: true, createdAt: true, revokedAt: true } as const;

function toEnvironment(row: { id: string; organizationId: string; name: string; slug: string; signingSecret: string; retryPolicy?: unknown }): Environment {
  const retryPolicy = (row.retryPolicy ?? null) as Environment['retryPolicy'];
  return { id: row.id, organizationId: row.organizationId, name: row.name, slug: row.slug, signingSecret: row.signingSecret, retryPolicy };
}
