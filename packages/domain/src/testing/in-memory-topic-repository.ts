import { randomUUID } from 'node:crypto';
import type { Subscriber } from '../entities/subscriber';
import type { SubscriberSummary, SubscriptionPreferenceRule, TopicSubscription } from '../entities/subscription';
import type { Topic, TopicInput } from '../entities/topic';
import type {
  SubscribeItem,
  SubscribeResult,
  SubscriptionOrderBy,
  SubscriptionSearch,
  TopicOrderBy,
  TopicRepository,
  TopicSearch,
  UnsubscribeResult,
  UnsubscribeTarget,
} from '../ports/topic-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { cursorPage } from './in-memory-cursor-page';
import { InMemoryStore, remove, type SubscriptionRow } from './in-memory-store';

const summary = (s: Subscriber): SubscriberSummary => ({
  id: s.id,
  subscriberId: s.subscriberId,
  firstName: s.firstName,
  lastName: s.lastName,
  email: s.email,
  avatar: s.avatar,
});

/** The TopicRepository double over the shared store; `topic-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemoryTopicRepository implements TopicRepository {
  constructor(readonly store = new InMemoryStore()) {}

  private topic(environmentId: string, key: string) {
    return this.store.topics.find((t) => t.environmentId === environmentId && t.key === key);
  }

  private present(row: SubscriptionRow): TopicSubscription {
    const topic = this.store.topics.find((t) => t.id === row.topicId)!;
    const subscriber = this.store.subscriberByRowId(row.subscriberRowId)!;
    const { topicId: _t, subscriberRowId: _s, ...own } = row;
    return structuredClone({ ...own, topic, subscriber: summary(subscriber) });
  }

  async upsertTopic(environmentId: string, input: TopicInput) {
    const existing = this.topic(environmentId, input.key);
    if (existing) {
      if (input.name !== undefined && input.name !== existing.name) Object.assign(existing, { name: input.name, updatedAt: this.store.now() });
      return { topic: { ...existing }, created: false };
    }
    const now = this.store.now();
    const topic: Topic = { id: randomUUID(), environmentId, key: input.key, name: input.name ?? null, createdAt: now, updatedAt: now };
    this.store.topics.push(topic);
    return { topic: { ...topic }, created: true };
  }

  async findTopic(environmentId: string, key: string) {
    const topic = this.topic(environmentId, key);
    return topic ? { ...topic } : null;
  }

  async searchTopics(environmentId: string, filter: TopicSearch, page: CursorQuery<TopicOrderBy>): Promise<CursorPage<Topic>> {
    const name = filter.name?.toLowerCase();
    const matches = this.store.topics.filter(
      (t) => t.environmentId === environmentId && (!filter.key || t.key === filter.key) && (!name || Boolean(t.name?.toLowerCase().includes(name))),
    );
    const result = cursorPage(matches, page, (t) => t[page.orderBy], page.orderBy !== 'key');
    return { ...result, data: result.data.map((t) => ({ ...t })) };
  }

  async updateTopic(environmentId: string, key: string, changes: { name?: string }) {
    const topic = this.topic(environmentId, key);
    if (!topic) return null;
    if (changes.name !== undefined) topic.name = changes.name;
    topic.updatedAt = this.store.now();
    return { ...topic };
  }

  async deleteTopic(environmentId: string, key: string) {
    const topic = this.topic(environmentId, key);
    if (!topic) return false;
    remove(this.store.topics, (t) => t === topic);
    remove(this.store.subscriptions, (s) => s.topicId === topic.id);
    return true;
  }

  async subscribe(environmentId: string, input: TopicInput, items: SubscribeItem[], preferences?: SubscriptionPreferenceRule[]): Promise<SubscribeResult> {
    const { topic } = await this.upsertTopic(environmentId, input);
    const result: SubscribeResult = { topic, subscriptions: [], missing: [], conflicts: [] };
    for (const item of items) {
      const subscriber = this.store.subscriber(environmentId, item.subscriberId);
      if (!subscriber) {
        result.missing.push(item.subscriberId);
        continue;
      }
      const existing = this.store.subscriptions.find((s) => s.environmentId === environmentId && s.identifier === item.identifier);
      if (existing && (existing.topicId !== topic.id || existing.subscriberRowId !== subscriber.id)) {
        result.conflicts.push(structuredClone(item));
        continue;
      }
      const now = this.store.now();
      const row = existing ?? {
        id: randomUUID(),
        environmentId,
        topicId: topic.id,
        subscriberRowId: subscriber.id,
        identifier: item.identifier,
        name: null,
        contextKeys: [],
        preferences: [],
        createdAt: now,
        updatedAt: now,
      };
      Object.assign(row, {
        name: item.name ?? row.name,
        contextKeys: [...item.contextKeys],
        preferences: structuredClone(preferences ?? row.preferences),
        updatedAt: now,
      });
      if (!existing) this.store.subscriptions.push(row);
      result.subscriptions.push(this.present(row));
    }
    return result;
  }

  async unsubscribe(environmentId: string, topicKey: string, targets: UnsubscribeTarget[]): Promise<UnsubscribeResult | null> {
    const topic = this.topic(environmentId, topicKey);
    if (!topic) return null;
    const hits = (target: UnsubscribeTarget) =>
      this.store.subscriptions.filter(
        (s) =>
          s.topicId === topic.id &&
          (target.identifier === undefined || s.identifier === target.identifier) &&
          (target.subscriberId === undefined || this.store.subscriberByRowId(s.subscriberRowId)?.subscriberId === target.subscriberId),
      );
    const doomed = new Set(targets.flatMap(hits));
    const result: UnsubscribeResult = { removed: [...doomed].map((row) => this.present(row)), notFound: targets.filter((t) => !hits(t).length) };
    remove(this.store.subscriptions, (s) => doomed.has(s));
    return result;
  }

  async searchSubscriptions(environmentId: string, filter: SubscriptionSearch, page: CursorQuery<SubscriptionOrderBy>): Promise<CursorPage<TopicSubscription>> {
    const topic = filter.topicKey === undefined ? undefined : this.topic(environmentId, filter.topicKey);
    const matches = this.store.subscriptions.filter(
      (s) =>
        s.environmentId === environmentId &&
        (!filter.topicKey || s.topicId === topic?.id) &&
        (!filter.subscriberId || this.store.subscriberByRowId(s.subscriberRowId)?.subscriberId === filter.subscriberId) &&
        (!filter.contextKeys || s.contextKeys.join('\n') === filter.contextKeys.join('\n')),
    );
    const result = cursorPage(matches, page, (s) => s[page.orderBy]);
    return { ...result, data: result.data.map((s) => this.present(s)) };
  }

  private subscription(environmentId: string, topicKey: string, identifier: string) {
    const topic = this.topic(environmentId, topicKey);
    return this.store.subscriptions.find((s) => s.environmentId === environmentId && s.identifier === identifier && s.topicId === topic?.id);
  }

  async findSubscription(environmentId: string, topicKey: string, identifier: string) {
    const row = this.subscription(environmentId, topicKey, identifier);
    return row ? this.present(row) : null;
  }

  async updateSubscription(environmentId: string, topicKey: string, identifier: string, changes: { name?: string; preferences?: SubscriptionPreferenceRule[] }) {
    const row = this.subscription(environmentId, topicKey, identifier);
    if (!row) return null;
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.preferences !== undefined) row.preferences = structuredClone(changes.preferences);
    row.updatedAt = this.store.now();
    return this.present(row);
  }
}
