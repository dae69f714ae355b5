import type {
  ChannelSettings,
  CursorPage,
  CursorQuery,
  Subscriber,
  SubscriberAttributes,
  SubscriberInput,
  SubscriberOrderBy,
  SubscriberRepository,
  SubscriberSearch,
  UpsertManyResult,
} from '@herald/domain';
import type { Pool } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';
import type { Prisma } from '../generated/prisma/client';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { paginate } from './cursor-pagination';
import { countSubscriberMatches, likeLiteral } from './subscriber-search-sql';
import { jsonOrNull, nullOnUniqueViolation } from './prisma-errors';
import { SUBSCRIBER_ATTRIBUTES } from './subscriber-sql';
import { upsertSubscribers } from './subscriber-upsert';

type Row = Prisma.SubscriberGetPayload<object>;

export class PrismaSubscriberRepository implements SubscriberRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
    /** Channel credentials are stored sealed and read back opened (docs/configuration.md#encryption-at-rest). */
    private readonly channels: ChannelCredentialCipher,
  ) {}

  async findById(environmentId: string, subscriberId: string): Promise<Subscriber | null> {
    const row = await this.prisma.subscriber.findUnique({ where: { environmentId_subscriberId: { environmentId, subscriberId } } });
    return row && this.subscriberFromPrisma(row);
  }

  async insert(environmentId: string, input: SubscriberInput): Promise<Subscriber | null> {
    const row = await nullOnUniqueViolation(
      this.prisma.subscriber.create({
        data: {
          environmentId,
          subscriberId: input.subscriberId,
          ...attributes(input),
          data: jsonOrNull(input.data),
          channels: this.channels.seal(input.channels ?? []) as unknown as Prisma.InputJsonValue,
        },
      }),
    );
    return row && this.subscriberFromPrisma(row);
  }


  async update(
    environmentId: string,
    subscriberId: string,
    changes: SubscriberAttributes & { channels?: ChannelSettings[] },
  ): Promise<Subscriber | null> {
    const data: Prisma.SubscriberUpdateInput = { ...attributes(changes), version: { increment: 1 } };
    if (changes.data !== undefined) data.data = jsonOrNull(changes.data);
    if (changes.channels !== undefined) data.channels = this.channels.seal(changes.channels) as unknown as Prisma.InputJsonValue;
    return this.updateWhere(environmentId, subscriberId, data);
  }

  upsertMany(environmentId: string, inputs: SubscriberInput[]): Promise<UpsertManyResult> {
    const sealed = inputs.map((input) => (input.channels ? { ...input, channels: this.channels.seal(input.channels) } : input));
    return upsertSubscribers(this.pool, environmentId, sealed);
  }


  setOnline(environmentId: string, subscriberId: string, isOnline: boolean, at: Date): Promise<Subscriber | null> {
    return this.updateWhere(environmentId, subscriberId, { isOnline, lastOnlineAt: at, version: { increment: 1 } });
  }

  async delete(environmentId: string, subscriberId: string): Promise<boolean> {
    // Subscriptions, preferences and endpoints go with it (ON DELETE CASCADE), in the same statement.
    const { count } = await this.prisma.subscriber.deleteMany({ where: { environmentId, subscriberId } });
    return count > 0;
  }

  async removeDeviceTokens(environmentId: string, subscriberRowId: string, tokens: string[]): Promise<number> {
    // One statement: rewrites each channel setting's deviceTokens without the given ones, compared
    // sealed under every key of the ring (equal tokens seal equally under one key; rows not yet
    // re-sealed by `encryption rotate` hold a previous key's envelope) and as written (rows stored
    // before sealing began, until `subscribers encrypt-credentials` has run).
    const rows = await this.pool.query<{ removed: number }>(
      `WITH before AS (SELECT channels FROM subscribers WHERE id = $1 AND environment_id = $2 FOR UPDATE),
       rewritten AS (
         UPDATE subscribers s SET version = s.version + 1, updated_at = now(), channels = (
           SELECT COALESCE(jsonb_agg(CASE WHEN jsonb_typeof(c->'credentials'->'deviceTokens') = 'array'
             THEN jsonb_set(c, '{credentials,deviceTokens}', COALESCE((SELECT jsonb_agg(t) FROM jsonb_array_elements(c->'credentials'->'deviceTokens') t
               WHERE NOT (t #>> '{}') = ANY($3::text[])), '[]'::jsonb))
             ELSE c END), '[]'::jsonb)
           FROM jsonb_array_elements(s.channels) c)
         FROM before WHERE s.id = $1 AND s.environment_id = $2
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM before, jsonb_array_elements(before.channels) c, jsonb_array_elements_text(
         CASE WHEN jsonb_typeof(c->'credentials'->'deviceTokens') = 'array' THEN c->'credentials'->'deviceTokens' ELSE '[]'::jsonb END) t
         WHERE t = ANY($3::text[])) AS removed
       FROM (SELECT count(*) FROM rewritten) _`,
      [subscriberRowId, environmentId, [...tokens.flatMap((t) => this.channels.sealedForms(t)), ...tokens]],
    );
    return rows.rows[0]?.removed ?? 0;
  }

  search(environmentId: string, filter: SubscriberSearch, page: CursorQuery<SubscriberOrderBy>): Promise<CursorPage<Subscriber>> {
    // Prisma passes these terms to LIKE as they are: escaped, a % or _ in them is literal.
    const where: Prisma.SubscriberWhereInput = { environmentId };
    if (filter.email) where.email = { startsWith: likeLiteral(filter.email) };
    if (filter.phone) where.phone = { startsWith: likeLiteral(filter.phone) };
    if (filter.subscriberId) where.subscriberId = { startsWith: likeLiteral(filter.subscriberId) };
    if (filter.name) {
      const [first, ...rest] = filter.name.trim().split(/\s+/);
      where.OR = [{ firstName: { contains: likeLiteral(filter.name) } }, { lastName: { contains: likeLiteral(filter.name) } }];
      if (rest.length) where.OR.push({ firstName: first, lastName: { startsWith: likeLiteral(rest.join(' ')) } });
    }
    const kind = page.orderBy === 'subscriberId' ? 'string' : 'date';
    const source = { findMany: this.prisma.subscriber.findMany.bind(this.prisma.subscriber), count: ({ take }: { take: number }) => countSubscriberMatches(this.pool, environmentId, filter, take) };
    return paginate(source, where, page, { name: page.orderBy, kind }, (row) => this.subscriberFromPrisma(row));
  }

  private async updateWhere(environmentId: string, subscriberId: string, data: Prisma.SubscriberUpdateInput) {
    const { count } = await this.prisma.subscriber.updateMany({ where: { environmentId, subscriberId }, data: data as Prisma.SubscriberUpdateManyMutationInput });
    return count ? this.findById(environmentId, subscriberId) : null;
  }

  private subscriberFromPrisma(row: Row): Subscriber {
    return { ...subscriberFields(row), channels: this.channels.open((row.channels as unknown as ChannelSettings[]) ?? [], row.subscriberId) };
  }
}

function attributes(input: SubscriberAttributes): Partial<Record<(typeof SUBSCRIBER_ATTRIBUTES)[number], string | null>> {
  const out: Partial<Record<(typeof SUBSCRIBER_ATTRIBUTES)[number], string | null>> = {};
  for (const key of SUBSCRIBER_ATTRIBUTES) if (input[key] !== undefined) out[key] = input[key];
  return out;
}


function subscriberFields(row: Row): Omit<Subscriber, 'channels'> {
  return {
    id: row.id,
    environmentId: row.environmentId,
    subscriberId: row.subscriberId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    avatar: row.avatar,
    locale: row.locale,
    timezone: row.timezone,
    data: (row.data as Record<string, unknown> | null) ?? null,
    isOnline: row.isOnline,
    lastOnlineAt: row.lastOnlineAt,
    version: row.version,
    deleted: row.deleted,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
