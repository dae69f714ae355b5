import type {
  ChannelConnection,
  ChannelConnectionFilter,
  ChannelConnectionOrderBy,
  ChannelConnectionRepository,
  ChatRoute,
  CredentialCipher,
  CursorPage,
  CursorQuery,
  NewChannelConnection,
} from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { channelFilterWhere, externalSubscriberIds, integrationBoundFields, integrationSummaries } from './channel-lookups';
import { paginate } from './cursor-pagination';
import { nullOnUniqueViolation } from './prisma-errors';

type Row = Prisma.ChannelConnectionGetPayload<object>;

/** Channel connections; `auth` (the access token) is stored only as a cipher envelope. */
export class PrismaChannelConnectionRepository implements ChannelConnectionRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: CredentialCipher,
    /** Opens the endpoints' addresses that `deliveryRoutes` reads (stored sealed: PrismaChannelEndpointRepository). */
    private readonly addresses: ChannelCredentialCipher,
  ) {}

  async create(environmentId: string, input: NewChannelConnection): Promise<ChannelConnection | null> {
    const row = await nullOnUniqueViolation(
      this.prisma.channelConnection.create({
        data: {
          environmentId,
          identifier: input.identifier,
          integrationId: input.integrationId,
          subscriberId: input.subscriberRowId,
          contextKeys: input.contextKeys,
          workspace: input.workspace as Prisma.InputJsonValue,
          auth: this.cipher.encrypt(input.auth),
        },
      }),
    );
    return row && (await this.present([row]))[0];
  }

  async findByIdentifier(environmentId: string, identifier: string): Promise<ChannelConnection | null> {
    const row = await this.prisma.channelConnection.findUnique({ where: { environmentId_identifier: { environmentId, identifier } } });
    return row ? (await this.present([row]))[0] : null;
  }

  async list(environmentId: string, filter: ChannelConnectionFilter, page: CursorQuery<ChannelConnectionOrderBy>): Promise<CursorPage<ChannelConnection>> {
    const where: Prisma.ChannelConnectionWhereInput = { environmentId, ...(await channelFilterWhere(this.prisma, environmentId, filter)) };
    if (filter.connectionMode === 'shared') where.subscriberId = null;
    if (filter.connectionMode === 'subscriber' && where.subscriberId === undefined) where.subscriberId = { not: null };
    const result = await paginate(this.prisma.channelConnection, where, page, { name: page.orderBy, kind: 'date' }, (row) => row);
    return { ...result, data: await this.present(result.data) };
  }

  async update(
    environmentId: string,
    identifier: string,
    changes: Partial<Pick<ChannelConnection, 'workspace' | 'auth'>>,
  ): Promise<ChannelConnection | null> {
    const data: Prisma.ChannelConnectionUpdateManyMutationInput = {};
    if (changes.workspace) data.workspace = changes.workspace as Prisma.InputJsonValue;
    if (changes.auth) data.auth = this.cipher.encrypt(changes.auth);
    const { count } = await this.prisma.channelConnection.updateMany({ where: { environmentId, identifier }, data });
    return count ? this.findByIdentifier(environmentId, identifier) : null;
  }

  async delete(environmentId: string, identifier: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.channelConnection.findUnique({ where: { environmentId_identifier: { environmentId, identifier } }, select: { id: true } });
      if (!row) return false;
      // Endpoints stay, delivered without the connection (the column has no foreign key to do this).
      await tx.channelEndpoint.updateMany({ where: { environmentId, connectionId: row.id }, data: { connectionId: null } });
      await tx.channelConnection.delete({ where: { id: row.id } });
      return true;
    });
  }

  async deliveryRoutes(environmentId: string, subscriberRowId: string, integrationIds: string[]): Promise<ChatRoute[]> {
    if (!integrationIds.length) return [];
    const rows = await this.prisma.$queryRaw<Array<{ identifier: string; integration_id: string; type: string; endpoint: Record<string, string>; auth: string | null }>>`
      SELECT e.identifier, e.integration_id, e.type, e.endpoint,
        COALESCE(own.auth, (SELECT c.auth FROM channel_connections c
          WHERE c.environment_id = e.environment_id AND c.integration_id = e.integration_id AND (c.subscriber_id = e.subscriber_id OR c.subscriber_id IS NULL)
          ORDER BY c.subscriber_id NULLS LAST, c.created_at LIMIT 1)) AS auth
      FROM channel_endpoints e
      LEFT JOIN channel_connections own ON own.id = e.connection_id
      WHERE e.environment_id = ${environmentId}::uuid AND e.subscriber_id = ${subscriberRowId}::uuid AND e.integration_id = ANY(${integrationIds}::uuid[])
      ORDER BY e.created_at`;
    return rows.map((r) => ({
      integrationId: r.integration_id,
      type: r.type as ChatRoute['type'],
      endpoint: this.addresses.openAddress(r.endpoint, r.identifier),
      accessToken: r.auth ? ((this.cipher.decrypt(r.auth) as ChannelConnection['auth']).accessToken ?? null) : null,
    }));
  }

  /** Rows -> connections, with integration and subscriber looked up once per page. */
  private async present(rows: Row[]): Promise<ChannelConnection[]> {
    const [integrations, subscribers] = await Promise.all([
      integrationSummaries(this.prisma, rows.map((r) => r.integrationId)),
      externalSubscriberIds(this.prisma, rows.map((r) => r.subscriberId)),
    ]);
    return rows.map((row) => ({
      ...integrationBoundFields(row, integrations),
      subscriberId: row.subscriberId ? (subscribers.get(row.subscriberId) ?? null) : null,
      workspace: row.workspace as ChannelConnection['workspace'],
      auth: this.cipher.decrypt(row.auth) as ChannelConnection['auth'],
    }));
  }
}
