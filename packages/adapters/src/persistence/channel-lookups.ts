import { toIntegrationBound, type ChannelType, type IntegrationBound } from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

/** Matches no row: what an unknown external id filters by, so the page is empty rather than unfiltered. */
export const NO_ROW = '00000000-0000-0000-0000-000000000000';

export interface IntegrationSummary {
  identifier: string;
  providerId: string;
  channel: ChannelType | null;
}

/**
 * The parts of a connection/endpoint list filter that name other tables (external subscriberId,
 * integration identifier, provider, channel), turned into conditions on this table's own columns.
 */
export async function channelFilterWhere(
  prisma: PrismaClient,
  environmentId: string,
  filter: { subscriberId?: string; channel?: ChannelType; providerId?: string; integrationIdentifier?: string; contextKeys?: string[] },
): Promise<{ subscriberId?: string; integrationId?: { in: string[] }; contextKeys?: { equals: string[] } }> {
  const where: Awaited<ReturnType<typeof channelFilterWhere>> = {};
  if (filter.subscriberId !== undefined) {
    const subscriber = await prisma.subscriber.findUnique({
      where: { environmentId_subscriberId: { environmentId, subscriberId: filter.subscriberId } },
      select: { id: true },
    });
    where.subscriberId = subscriber?.id ?? NO_ROW;
  }
  if (filter.channel || filter.providerId || filter.integrationIdentifier) {
    const integrationWhere: Prisma.IntegrationWhereInput = { environmentId, deleted: false };
    if (filter.channel) integrationWhere.channel = filter.channel;
    if (filter.providerId) integrationWhere.providerId = filter.providerId;
    if (filter.integrationIdentifier) integrationWhere.identifier = filter.integrationIdentifier;
    const ids = await prisma.integration.findMany({ where: integrationWhere, select: { id: true } });
    where.integrationId = { in: ids.map((i) => i.id) };
  }
  // Stored keys are sorted, and the filter arrives sorted: equality is order-insensitive.
  if (filter.contextKeys?.length) where.contextKeys = { equals: filter.contextKeys };
  return where;
}

/** Identifier, provider and channel of each integration id (deleted ones included: rows outlive them). */
export async function integrationSummaries(prisma: PrismaClient, ids: Iterable<string>): Promise<Map<string, IntegrationSummary>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await prisma.integration.findMany({ where: { id: { in: unique } }, select: { id: true, identifier: true, providerId: true, channel: true } });
  return new Map(rows.map((r) => [r.id, { identifier: r.identifier, providerId: r.providerId, channel: r.channel as ChannelType | null }]));
}

/** Row id -> external subscriberId. */
export async function externalSubscriberIds(prisma: PrismaClient, ids: Iterable<string | null>): Promise<Map<string, string>> {
  const unique = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (!unique.length) return new Map();
  const rows = await prisma.subscriber.findMany({ where: { id: { in: unique } }, select: { id: true, subscriberId: true } });
  return new Map(rows.map((r) => [r.id, r.subscriberId]));
}

/** The columns connections and endpoints share, with their integration's identifier, provider and channel. */
export function integrationBoundFields(
  row: { id: string; environmentId: string; identifier: string; integrationId: string; contextKeys: string[]; createdAt: Date; updatedAt: Date },
  integrations: Map<string, IntegrationSummary>,
): IntegrationBound {
  return toIntegrationBound(row, integrations.get(row.integrationId));
}
