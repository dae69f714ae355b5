import { PrismaTopicRepository } from '@herald/adapters';
import {
  DeleteTopic,
  GetTopic,
  GetTopicSubscription,
  InboxSubscriptions,
  ListSubscriberSubscriptions,
  ListTopicSubscriptions,
  PreferenceRepository,
  SearchTopics,
  SubscribeToTopic,
  SubscriberRepository,
  TopicRepository,
  UnsubscribeFromTopic,
  UpdateTopic,
  UpdateTopicSubscription,
  UpsertTopic,
} from '@herald/domain';
import type { Wiring } from './binder';

/** Topics and their subscriptions (a subscription's preferences included), also as the Inbox's subscriber manages their own. */
export const topics: Wiring = (bind, { db }) => {
  bind.value(TopicRepository, new PrismaTopicRepository(db.prisma, db.pool));
  bind.construct(UpsertTopic, [TopicRepository]);
  bind.construct(GetTopic, [TopicRepository]);
  bind.construct(SearchTopics, [TopicRepository]);
  bind.construct(UpdateTopic, [TopicRepository]);
  bind.construct(DeleteTopic, [TopicRepository]);
  bind.construct(SubscribeToTopic, [TopicRepository, PreferenceRepository]);
  bind.construct(UnsubscribeFromTopic, [TopicRepository]);
  bind.construct(ListTopicSubscriptions, [TopicRepository]);
  bind.construct(ListSubscriberSubscriptions, [TopicRepository, SubscriberRepository]);
  bind.construct(GetTopicSubscription, [TopicRepository, PreferenceRepository]);
  bind.construct(UpdateTopicSubscription, [TopicRepository, PreferenceRepository]);
  bind.construct(InboxSubscriptions, [TopicRepository, PreferenceRepository]);
};
