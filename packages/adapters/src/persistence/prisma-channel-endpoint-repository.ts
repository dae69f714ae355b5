import type {
  ChannelEndpoint,
  ChannelEndpointFilter,
  ChannelEndpointOrderBy,
  ChannelEndpointRepository,
  CursorPage,
  CursorQuery,
  EndpointAddress,
  EndpointType,
  NewChannelEndpoint,
} from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { NO_ROW, channelFilterWhere, externalSubscriberIds, integrationBoundFields, integrationSummaries } from './channel-lookups';
import { paginate } from './cursor-pagination';
import { nullOnUniqueViolation } from './prisma-errors';

type Row = Prisma.ChannelEndpointGetPayload<object>;

export class PrismaChannelEndpointRepository implements ChannelEndpointRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** Addresses (webhook URLs, chat channels, phone numbers) are stored sealed, value by value. */
    private readonly addresses: ChannelCredentialCipher,
  ) {}

  async create(environmentId: string, input: NewChannelEndpoint): Promise<ChannelEndpoint | null> {
    const row = await nullOnUniqueViolation(
      this.prisma.channelEndpoint.create({
        data: {
          environmentId,
          identifier: input.identifier,
          integrationId: input.integrationId,
          connectionId: input.connectionId,
          subscriberId: input.subscriberRowId,
          contextKeys: input.contextKeys,
          type: input.type,
          endpoint: this.addresses.sealAddress(input.endpoint),
        },
      }),
    );
    return row && (await this.present([row]))[0];
  }

  async findByIdentifier(environmentId: string, identifier: string): Promise<ChannelEndpoint | null> {
    const row = await this.prisma.channelEndpoint.findUnique({ where: { environmentId_identifier: { environmentId, identifier } } });
    return row ? (await this.present([row]))[0] : null;
  }

  async list(environmentId: string, filter: ChannelEndpointFilter, page: CursorQuery<ChannelEndpointOrderBy>): Promise<CursorPage<ChannelEndpoint>> {
    const where: Prisma.ChannelEndpointWhereInput = { environmentId, ...(await channelFilterWhere(this.prisma, environmentId, filter)) };
    if (filter.connectionIdentifier !== undefined) {
      const connection = await this.prisma.channelConnection.findUnique({
        where: { environmentId_identifier: { environmentId, identifier: filter.connectionIdentifier } },
        select: { id: true },
      });
      where.connectionId = connection?.id ?? NO_ROW;
    }
    const result = await paginate(this.prisma.channelEndpoint, where, page, { name: page.orderBy, kind: 'date' }, (row) => row);
    return { ...result, data: await this.present(result.data) };
  }

  async updateEndpoint(environmentId: string, identifier: string, endpoint: EndpointAddress): Promise<ChannelEndpoint | null> {
    const { count } = await this.prisma.channelEndpoint.updateMany({ where: { environmentId, identifier }, data: { endpoint: this.addresses.sealAddress(endpoint) } });
    return count ? this.findByIdentifier(environmentId, identifier) : null;
  }

  async delete(environmentId: string, identifier: string): Promise<boolean> {
    const { count } = await this.prisma.channelEndpoint.deleteMany({ where: { environmentId, identifier } });
    return count > 0;
  }

  /** Rows -> endpoints, with integrations, connections and subscribers looked up once per page. */
  private async present(rows: Row[]): Promise<ChannelEndpoint[]> {
    const connectionIds = [...new Set(rows.map((r) => r.connectionId).filter((id): id is string => id !== null))];
    const [integrations, subscribers, connections] = await Promise.all([
      integrationSummaries(this.prisma, rows.map((r) => r.integrationId)),
      externalSubscriberIds(this.prisma, rows.map((r) => r.subscriberId)),
      connectionIds.length
        ? this.prisma.channelConnection.findMany({ where: { id: { in: connectionIds } }, select: { id: true, identifier: true } })
        : Promise.resolve([]),
    ]);
    const connectionIdentifiers = new Map(connections.map((c) => [c.id, c.identifier]));
    return rows.map((row) => ({
      ...integrationBoundFields(row, integrations),
      connectionId: row.connectionId,
      connectionIdentifier: row.connectionId ? (connectionIdentifiers.get(row.connectionId) ?? null) : null,
      subscriberId: subscribers.get(row.subscriberId) ?? '',
      type: row.type as EndpointType,
      endpoint: this.addresses.openAddress(row.endpoint as EndpointAddress, row.identifier),
    }));
  }
}
