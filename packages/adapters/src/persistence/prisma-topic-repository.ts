import type {
  CursorPage,
  CursorQuery,
  SubscribeItem,
  SubscribeResult,
  SubscriberSummary,
  SubscriptionOrderBy,
  SubscriptionPreferenceRule,
  SubscriptionSearch,
  Topic,
  TopicInput,
  TopicOrderBy,
  TopicRepository,
  TopicSearch,
  TopicSubscription,
  UnsubscribeResult,
  UnsubscribeTarget,
} from '@herald/domain';
import type { Pool } from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { paginate } from './cursor-pagination';
import { SUBSCRIBE, UNSUBSCRIBE } from './topic-sql';

const INCLUDE = {
  topic: true,
  subscriber: { select: { id: true, subscriberId: true, firstName: true, lastName: true, email: true, avatar: true } },
} as const;
type SubscriptionRow = Prisma.TopicSubscriptionGetPayload<{ include: typeof INCLUDE }>;
type TopicRow = Prisma.TopicGetPayload<object>;
/** A row of the raw statements: subscription columns plus `s_*` subscriber columns. */
type RawRow = Record<string, unknown>;

export class PrismaTopicRepository implements TopicRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
  ) {}

  async upsertTopic(environmentId: string, input: TopicInput): Promise<{ topic: Topic; created: boolean }> {
    const { rows } = await this.pool.query<RawRow>(
      `INSERT INTO topics (environment_id, key, name) VALUES ($1::uuid, $2, $3)
       ON CONFLICT (environment_id, key) DO UPDATE SET
         name = COALESCE(EXCLUDED.name, topics.name),
         updated_at = CASE WHEN EXCLUDED.name IS DISTINCT FROM topics.name AND EXCLUDED.name IS NOT NULL THEN now() ELSE topics.updated_at END
       RETURNING id AS t_id, environment_id AS t_environment_id, key AS t_key, name AS t_name,
         created_at AS t_created_at, updated_at AS t_updated_at, (xmax = 0) AS created`,
      [environmentId, input.key, input.name ?? null],
    );
    return { topic: rawTopic(rows[0]), created: rows[0].created as boolean };
  }

  async findTopic(environmentId: string, key: string): Promise<Topic | null> {
    const row = await this.prisma.topic.findUnique({ where: { environmentId_key: { environmentId, key } } });
    return row && toTopic(row);
  }

  searchTopics(environmentId: string, filter: TopicSearch, page: CursorQuery<TopicOrderBy>): Promise<CursorPage<Topic>> {
    const where: Prisma.TopicWhereInput = { environmentId };
    if (filter.key) where.key = filter.key;
    if (filter.name) where.name = { contains: filter.name, mode: 'insensitive' };
    const kind = page.orderBy === 'key' ? 'string' : 'date';
    return paginate(this.prisma.topic, where, page, { name: page.orderBy, kind }, toTopic);
  }

  async updateTopic(environmentId: string, key: string, changes: { name?: string }): Promise<Topic | null> {
    const { count } = await this.prisma.topic.updateMany({ where: { environmentId, key }, data: { ...changes, updatedAt: new Date() } });
    return count ? this.findTopic(environmentId, key) : null;
  }

  async deleteTopic(environmentId: string, key: string): Promise<boolean> {
    // Its subscriptions go with it (ON DELETE CASCADE), in the same statement.
    const { count } = await this.prisma.topic.deleteMany({ where: { environmentId, key } });
    return count > 0;
  }

  async subscribe(environmentId: string, input: TopicInput, items: SubscribeItem[], preferences?: SubscriptionPreferenceRule[]): Promise<SubscribeResult> {
    const { rows } = await this.pool.query<RawRow>(SUBSCRIBE, [
      environmentId,
      input.key,
      input.name ?? null,
      preferences ? JSON.stringify(preferences) : null,
      JSON.stringify(items),
    ]);
    const topic = rawTopic(rows[0]);
    const result: SubscribeResult = { topic, subscriptions: [], missing: [], conflicts: [] };
    for (const row of rows) {
      if (row.n === null) continue;
      if (row.outcome === 'saved') result.subscriptions.push(rawSubscription(row, topic, environmentId));
      else if (row.outcome === 'missing') result.missing.push(row.input_subscriber_id as string);
      else {
        result.conflicts.push({
          subscriberId: row.input_subscriber_id as string,
          identifier: row.input_identifier as string,
          contextKeys: row.input_context_keys as string[],
          ...(row.input_name !== null ? { name: row.input_name as string } : {}),
        });
      }
    }
    return result;
  }

  async unsubscribe(environmentId: string, topicKey: string, targets: UnsubscribeTarget[]): Promise<UnsubscribeResult | null> {
    const topic = await this.findTopic(environmentId, topicKey);
    if (!topic) return null;
    const { rows } = await this.pool.query<RawRow>(UNSUBSCRIBE, [environmentId, topic.id, JSON.stringify(targets)]);
    const result: UnsubscribeResult = { removed: [], notFound: [] };
    for (const row of rows) {
      if (row.outcome === 'removed') result.removed.push(rawSubscription(row, topic, environmentId));
      else result.notFound.push(targets[Number(row.n) - 1]);
    }
    return result;
  }

  searchSubscriptions(environmentId: string, filter: SubscriptionSearch, page: CursorQuery<SubscriptionOrderBy>): Promise<CursorPage<TopicSubscription>> {
    const where: Prisma.TopicSubscriptionWhereInput = { environmentId };
    if (filter.topicKey) where.topic = { key: filter.topicKey };
    if (filter.subscriberId) where.subscriber = { subscriberId: filter.subscriberId };
    // Stored sorted, so equality with the sorted filter is the exact, order-insensitive match.
    if (filter.contextKeys) where.contextKeys = { equals: filter.contextKeys };
    const source = {
      findMany: (args: { where: object; orderBy: object[]; take: number }) =>
        this.prisma.topicSubscription.findMany({ ...(args as Prisma.TopicSubscriptionFindManyArgs), include: INCLUDE }),
      count: (args: { where: object; take: number }) => this.prisma.topicSubscription.count(args as Prisma.TopicSubscriptionCountArgs),
    };
    return paginate(source, where, page, { name: page.orderBy, kind: 'date' }, toSubscription);
  }

  async findSubscription(environmentId: string, topicKey: string, identifier: string): Promise<TopicSubscription | null> {
    const row = await this.prisma.topicSubscription.findFirst({ where: { environmentId, identifier, topic: { key: topicKey } }, include: INCLUDE });
    return row && toSubscription(row);
  }

  async updateSubscription(
    environmentId: string,
    topicKey: string,
    identifier: string,
    changes: { name?: string; preferences?: SubscriptionPreferenceRule[] },
  ): Promise<TopicSubscription | null> {
    const data: Prisma.TopicSubscriptionUpdateManyMutationInput = { updatedAt: new Date() };
    if (changes.name !== undefined) data.name = changes.name;
    if (changes.preferences !== undefined) data.preferences = changes.preferences as unknown as Prisma.InputJsonValue;
    const { count } = await this.prisma.topicSubscription.updateMany({ where: { environmentId, identifier, topic: { key: topicKey } }, data });
    return count ? this.findSubscription(environmentId, topicKey, identifier) : null;
  }
}

export function toTopic(row: TopicRow): Topic {
  return { id: row.id, environmentId: row.environmentId, key: row.key, name: row.name, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

function toSubscription(row: SubscriptionRow): TopicSubscription {
  return {
    id: row.id,
    environmentId: row.environmentId,
    identifier: row.identifier,
    name: row.name,
    contextKeys: row.contextKeys,
    preferences: (row.preferences as unknown as SubscriptionPreferenceRule[]) ?? [],
    topic: toTopic(row.topic),
    subscriber: row.subscriber,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function rawTopic(row: RawRow): Topic {
  return {
    id: row.t_id as string,
    environmentId: row.t_environment_id as string,
    key: row.t_key as string,
    name: row.t_name as string | null,
    createdAt: row.t_created_at as Date,
    updatedAt: row.t_updated_at as Date,
  };
}

function rawSubscription(row: RawRow, topic: Topic, environmentId: string): TopicSubscription {
  const subscriber: SubscriberSummary = {
    id: row.s_id as string,
    subscriberId: row.s_subscriber_id as string,
    firstName: row.s_first_name as string | null,
    lastName: row.s_last_name as string | null,
    email: row.s_email as string | null,
    avatar: row.s_avatar as string | null,
  };
  return {
    id: row.id as string,
    environmentId,
    identifier: row.identifier as string,
    name: row.name as string | null,
    contextKeys: row.context_keys as string[],
    preferences: row.preferences as SubscriptionPreferenceRule[],
    topic,
    subscriber,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}
