import { token } from '../shared/token';
import type { SubscriptionPreferenceRule, TopicSubscription } from '../entities/subscription';
import type { Topic, TopicInput } from '../entities/topic';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const TopicRepository = token<TopicRepository>('TopicRepository');

export type TopicOrderBy = 'createdAt' | 'updatedAt' | 'key';
export type SubscriptionOrderBy = 'createdAt' | 'updatedAt';

export interface TopicSearch {
  /** Exact key. */
  key?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
}

export interface SubscriptionSearch {
  topicKey?: string;
  /** External subscriber id. */
  subscriberId?: string;
  /** Sorted; matches subscriptions whose context keys are exactly these. */
  contextKeys?: string[];
}

export interface SubscribeItem {
  subscriberId: string;
  identifier: string;
  name?: string;
  contextKeys: string[];
}

export interface SubscribeResult {
  topic: Topic;
  /** Created or updated, in input order. */
  subscriptions: TopicSubscription[];
  /** Subscriber ids with no subscriber in the environment. */
  missing: string[];
  /** Items whose identifier already belongs to another topic or subscriber; left unchanged. */
  conflicts: SubscribeItem[];
}

/** Remove one subscription by identifier, or every subscription of a subscriber on the topic. */
export interface UnsubscribeTarget {
  subscriberId?: string;
  identifier?: string;
}

export interface UnsubscribeResult {
  removed: TopicSubscription[];
  notFound: UnsubscribeTarget[];
}

export interface TopicRepository {
  /** Creates the topic or updates its name when given; `created` tells which. */
  upsertTopic(environmentId: string, input: TopicInput): Promise<{ topic: Topic; created: boolean }>;
  /** null when the environment has no topic with that key. */
  findTopic(environmentId: string, key: string): Promise<Topic | null>;
  /** Keyset pages in `orderBy` order, ties by id (keys compare code units). */
  searchTopics(environmentId: string, filter: TopicSearch, page: CursorQuery<TopicOrderBy>): Promise<CursorPage<Topic>>;
  /** null when no topic has that key. */
  updateTopic(environmentId: string, key: string, changes: { name?: string }): Promise<Topic | null>;
  /** Removes the topic with its subscriptions; false when not found. */
  deleteTopic(environmentId: string, key: string): Promise<boolean>;
  /**
   * Upserts the topic and subscribes every item in ONE set-based statement: an existing identifier is
   * updated (never duplicated); `preferences` replaces the stored rules when given, else keeps them.
   */
  subscribe(environmentId: string, topic: TopicInput, items: SubscribeItem[], preferences?: SubscriptionPreferenceRule[]): Promise<SubscribeResult>;
  /** null when the topic does not exist; otherwise removes every target in one statement. */
  unsubscribe(environmentId: string, topicKey: string, targets: UnsubscribeTarget[]): Promise<UnsubscribeResult | null>;
  /** Keyset pages by creation or update time, ties by id; an unknown topic or subscriber in the filter matches nothing. */
  searchSubscriptions(environmentId: string, filter: SubscriptionSearch, page: CursorQuery<SubscriptionOrderBy>): Promise<CursorPage<TopicSubscription>>;
  /** The subscription with that identifier on that topic; null when there is none. */
  findSubscription(environmentId: string, topicKey: string, identifier: string): Promise<TopicSubscription | null>;
  /** null when not found; `preferences` replaces the stored rules when given. */
  updateSubscription(
    environmentId: string,
    topicKey: string,
    identifier: string,
    changes: { name?: string; preferences?: SubscriptionPreferenceRule[] },
  ): Promise<TopicSubscription | null>;
}
