import type { ChannelType, CursorPage, CursorQuery, OutboxFilter, OutboxMessage, OutboxRepository } from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { NO_ROW, externalSubscriberIds } from './channel-lookups';
import { paginate } from './cursor-pagination';

type Row = Prisma.MessageGetPayload<object>;

/** The address a message went to: the destination string itself, or its `to` (else email/phone) field. */
function addressOf(destination: Prisma.JsonValue | null): string | null {
  if (typeof destination === 'string') return destination;
  if (destination && typeof destination === 'object' && !Array.isArray(destination)) {
    for (const key of ['to', 'email', 'phone']) {
      const value = destination[key];
      if (typeof value === 'string') return value;
    }
  }
  return null;
}

/** Reads the development sinks' messages out of the `messages` table. */
export class PrismaOutboxRepository implements OutboxRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async list(environmentId: string, filter: OutboxFilter, page: CursorQuery<'createdAt'>): Promise<CursorPage<OutboxMessage>> {
    // No outbox sink is in-app; saying so lets the planner use the outbox index, which leaves inbox messages out.
    const where: Prisma.MessageWhereInput = { environmentId, providerId: { in: filter.providerIds }, channel: { not: 'in_app' } };
    if (filter.transactionId !== undefined) where.transactionId = filter.transactionId;
    if (filter.to !== undefined) {
      where.OR = [
        { destination: { equals: filter.to } },
        ...['to', 'email', 'phone'].map((key) => ({ destination: { path: [key], equals: filter.to } })),
      ];
    }
    if (filter.subscriberId !== undefined) {
      const subscriber = await this.prisma.subscriber.findUnique({
        where: { environmentId_subscriberId: { environmentId, subscriberId: filter.subscriberId } },
        select: { id: true },
      });
      where.subscriberId = subscriber?.id ?? NO_ROW;
    }
    const result = await paginate(this.prisma.message, where, page, { name: 'createdAt', kind: 'date' }, (row: Row) => row);
    const subscribers = await externalSubscriberIds(this.prisma, result.data.map((r) => r.subscriberId));
    return {
      ...result,
      data: result.data.map((row) => ({
        id: row.id,
        channel: row.channel as ChannelType,
        providerId: row.providerId ?? '',
        to: addressOf(row.destination),
        subject: row.subject,
        body: row.body,
        transactionId: row.transactionId,
        subscriberId: subscribers.get(row.subscriberId) ?? null,
        status: row.status,
        createdAt: row.createdAt,
      })),
    };
  }
}
