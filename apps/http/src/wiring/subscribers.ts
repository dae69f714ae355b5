import { ChannelCredentialCipher, PrismaPreferenceRepository, PrismaSubscriberRepository } from '@herald/adapters';
import {
  ApplyDefaultSchedule,
  IntegrationRepository,
  BulkCreateSubscribers,
  CreateSubscriber,
  DeleteSubscriber,
  GetSubscriber,
  GetSubscriberPreferences,
  PreferenceRepository,
  SearchSubscribers,
  SetSubscriberCredentials,
  SetSubscriberOnlineStatus,
  SubscriberRepository,
  UpdateSubscriber,
  UpdateSubscriberPreferences,
} from '@herald/domain';
import type { Wiring } from './binder';

/** Subscribers and their preferences (a delivery schedule among them: docs/delivery-schedules.md). */
export const subscribers: Wiring = (bind, { db }) => {
  bind.factory(SubscriberRepository, [ChannelCredentialCipher], (channels) => new PrismaSubscriberRepository(db.prisma, db.pool, channels));
  bind.value(PreferenceRepository, new PrismaPreferenceRepository(db.prisma, db.pool));
  bind.construct(CreateSubscriber, [SubscriberRepository]);
  bind.construct(GetSubscriber, [SubscriberRepository]);
  bind.construct(UpdateSubscriber, [SubscriberRepository]);
  bind.construct(DeleteSubscriber, [SubscriberRepository]);
  bind.construct(SetSubscriberOnlineStatus, [SubscriberRepository]);
  bind.construct(SetSubscriberCredentials, [SubscriberRepository, IntegrationRepository]);
  bind.construct(SearchSubscribers, [SubscriberRepository]);
  bind.construct(BulkCreateSubscribers, [SubscriberRepository]);
  bind.construct(GetSubscriberPreferences, [PreferenceRepository]);
  bind.construct(UpdateSubscriberPreferences, [PreferenceRepository]);
  bind.construct(ApplyDefaultSchedule, [PreferenceRepository]);
};
