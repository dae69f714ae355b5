import {
  DomainError,
  type BuiltInIntegration,
  type ChannelType,
  type CredentialCipher,
  type Integration,
  type IntegrationChanges,
  type IntegrationKind,
  type IntegrationRepository,
  type NewIntegration,
  type StepFilter,
} from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUniqueViolation, nullOnUniqueViolation } from './prisma-errors';
import { isUuid } from './sql-params';

type Row = Prisma.IntegrationGetPayload<object>;
type Tx = Prisma.TransactionClient;

// Creates the missing built-ins of many environments in one statement. A provider that ever existed
// in an environment (even deleted) is not recreated; primary only where the channel has none.
const ENSURE_BUILT_INS = `
INSERT INTO integrations (environment_id, name, identifier, provider_id, channel, kind, active, "primary")
SELECT e.id, b.name, b.identifier, b.provider_id, b.channel, 'delivery', true,
       NOT EXISTS (SELECT 1 FROM integrations p
                   WHERE p.environment_id = e.id AND p.channel = b.channel AND p."primary" AND NOT p.deleted)
FROM unnest($1::uuid[]) AS e(id)
CROSS JOIN jsonb_to_recordset($2::jsonb) AS b(provider_id text, identifier text, name text, channel text)
WHERE NOT EXISTS (SELECT 1 FROM integrations i WHERE i.environment_id = e.id AND i.provider_id = b.provider_id)
ON CONFLICT DO NOTHING`;

export class PrismaIntegrationRepository implements IntegrationRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: CredentialCipher,
  ) {}

  async activeChannels(environmentId: string): Promise<Set<ChannelType>> {
    const rows = await this.prisma.integration.findMany({
      where: { environmentId, active: true, deleted: false, channel: { not: null } },
      distinct: ['channel'],
      select: { channel: true },
    });
    return new Set(rows.map((r) => r.channel as ChannelType));
  }

  async list(environmentId: string, options: { activeOnly?: boolean } = {}): Promise<Integration[]> {
    const rows = await this.prisma.integration.findMany({
      where: { environmentId, deleted: false, ...(options.activeOnly ? { active: true } : {}) },
      orderBy: [{ createdAt: 'asc' }, { identifier: 'asc' }],
    });
    return rows.map((r) => this.toIntegration(r));
  }

  async find(environmentId: string, idOrIdentifier: string): Promise<Integration | null> {
    const match = isUuid(idOrIdentifier) ? [{ id: idOrIdentifier }, { identifier: idOrIdentifier }] : [{ identifier: idOrIdentifier }];
    // An id wins over an identifier that happens to look like one.
    const rows = await this.prisma.integration.findMany({ where: { environmentId, deleted: false, OR: match } });
    const row = rows.find((r) => r.id === idOrIdentifier) ?? rows[0];
    return row ? this.toIntegration(row) : null;
  }

  async create(environmentId: string, input: NewIntegration): Promise<Integration | null> {
    const data: Prisma.IntegrationUncheckedCreateInput = {
      environmentId,
      name: input.name,
      identifier: input.identifier,
      providerId: input.providerId,
      channel: input.channel,
      kind: input.kind,
      credentials: this.cipher.encrypt(input.credentials),
      configurations: input.configurations as Prisma.InputJsonValue,
      active: input.active,
      primary: input.primary,
      conditions: input.conditions as unknown as Prisma.InputJsonValue,
    };
    // The primary index cannot clash (writes to a channel's primary are serialised), so a clash is the identifier.
    const row = await nullOnUniqueViolation(
      this.prisma.$transaction(async (tx) => {
        if (input.primary) await this.demotePrimary(tx, environmentId, input.channel);
        return tx.integration.create({ data });
      }),
    );
    return row && this.toIntegration(row);
  }

  async update(environmentId: string, id: string, changes: IntegrationChanges): Promise<Integration | null> {
    const data: Prisma.IntegrationUpdateManyMutationInput = {};
    if (changes.name !== undefined) data.name = changes.name;
    if (changes.identifier !== undefined) data.identifier = changes.identifier;
    if (changes.active !== undefined) data.active = changes.active;
    // An inactive integration cannot stay its channel's primary.
    if (changes.active === false) data.primary = false;
    if (changes.credentials !== undefined) data.credentials = this.cipher.encrypt(changes.credentials);
    if (changes.configurations !== undefined) data.configurations = changes.configurations as Prisma.InputJsonValue;
    if (changes.conditions !== undefined) data.conditions = changes.conditions as unknown as Prisma.InputJsonValue;
    try {
      const { count } = await this.prisma.integration.updateMany({ where: { id, environmentId, deleted: false }, data });
      return count ? this.find(environmentId, id) : null;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new DomainError('INTEGRATION_ALREADY_EXISTS', `An integration with identifier '${changes.identifier}' already exists`);
    }
  }

  async setPrimary(environmentId: string, id: string): Promise<Integration | null> {
    const row = await this.prisma.$transaction(async (tx) => {
      const target = await tx.integration.findFirst({ where: { id, environmentId, deleted: false } });
      if (!target) return null;
      await this.demotePrimary(tx, environmentId, target.channel);
      return tx.integration.update({ where: { id }, data: { primary: true, active: true } });
    });
    return row && this.toIntegration(row);
  }

  async softDelete(environmentId: string, id: string, deletedBy?: string): Promise<boolean> {
    const { count } = await this.prisma.integration.updateMany({
      where: { id, environmentId, deleted: false },
      data: { deleted: true, deletedAt: new Date(), deletedBy: deletedBy ?? null, primary: false, active: false },
    });
    return count === 1;
  }

  async retireBuiltIns(environmentIds: string[], providerIds: string[]): Promise<number> {
    if (!environmentIds.length || !providerIds.length) return 0;
    const { count } = await this.prisma.integration.updateMany({
      where: { environmentId: { in: environmentIds }, providerId: { in: providerIds }, deleted: false },
      data: { deleted: true, deletedAt: new Date(), deletedBy: 'system', primary: false, active: false },
    });
    return count;
  }

  async findDeliveryCandidates(environmentId: string, channel: ChannelType): Promise<Integration[]> {
    const rows = await this.prisma.integration.findMany({
      where: { environmentId, channel, active: true, deleted: false },
      orderBy: [{ primary: 'desc' }, { priority: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map((r) => this.toIntegration(r));
  }

  async ensureBuiltIns(environmentIds: string[], builtIns: readonly BuiltInIntegration[]): Promise<number> {
    const spec = builtIns.map((b) => ({ provider_id: b.providerId, identifier: b.identifier, name: b.name, channel: b.channel }));
    return this.prisma.$executeRawUnsafe(ENSURE_BUILT_INS, environmentIds, JSON.stringify(spec));
  }

  /** Clears the channel's primary; the advisory lock serialises every primary change of that channel. */
  private async demotePrimary(tx: Tx, environmentId: string, channel: string | null): Promise<void> {
    if (channel === null) return;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`integration-primary:${environmentId}:${channel}`}))`;
    await tx.integration.updateMany({ where: { environmentId, channel, primary: true, deleted: false }, data: { primary: false } });
  }

  /**
   * Credentials are decrypted when first read, not with the row: listing and reading integrations
   * never show them, and one integration whose credentials no configured key opens must neither fail
   * the list nor the delivery candidates beside it. Reading them is a CREDENTIALS_UNREADABLE
   * DomainError naming the integration.
   */
  private toIntegration(row: Row): Integration {
    const stored = row.credentials;
    let opened: Integration['credentials'] | undefined;
    const open = (): Integration['credentials'] => {
      if (!stored) return {};
      try {
        return this.cipher.decrypt(stored) as Integration['credentials'];
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        throw new DomainError('CREDENTIALS_UNREADABLE', `the credentials of integration ${row.identifier} cannot be decrypted (${error.message}): restore the key they were written with (HERALD_ENCRYPTION_KEYS_PREVIOUS), or delete the integration and create it again`);
      }
    };
    return Object.defineProperty(this.fields(row), 'credentials', { enumerable: true, get: () => (opened ??= open()) }) as Integration;
  }

  private fields(row: Row): Omit<Integration, 'credentials'> {
    return {
      id: row.id,
      environmentId: row.environmentId,
      name: row.name,
      identifier: row.identifier,
      providerId: row.providerId,
      channel: row.channel as ChannelType | null,
      kind: row.kind as IntegrationKind,
      configurations: (row.configurations ?? {}) as Integration['configurations'],
      active: row.active,
      primary: row.primary,
      priority: row.priority,
      conditions: (row.conditions ?? []) as unknown as StepFilter[],
      deleted: row.deleted,
      deletedAt: row.deletedAt,
      deletedBy: row.deletedBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
