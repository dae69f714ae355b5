import { PrismaTopicRepository } from '@herald/adapters';
import {
  DeleteTopic,
  GetTopic,
  GetTopicSubscription,
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

/** Topics and their subscriptions (a subscription's preferences included). */
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
};
