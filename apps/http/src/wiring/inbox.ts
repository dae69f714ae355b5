import { PgInboxFeed, SqlInboxRepository } from '@herald/adapters';
import {
  AuthenticateSubscriberToken,
  ChangeInboxNotification,
  ChangeInboxNotifications,
  CompleteInboxAction,
  CountInboxNotifications,
  DeleteInboxNotification,
  DeliveryObserver,
  InboxFeed,
  InboxLiveObserver,
  InboxRepository,
  ListInboxNotifications,
  ReadLiveInboxChanges,
  StartInboxSession,
  SubscriberRepository,
  SubscriberTokens,
  TenancyRepository,
} from '@herald/domain';
import { InboxOrigins } from '../platform/inbox-cors';
import type { Wiring } from './binder';

/** Subscribers' in-app inboxes: the API, browser sessions, and live updates heard by every process. */
export const inbox: Wiring = (bind, { db, logger }) => {
  bind.value(InboxRepository, new SqlInboxRepository(db.pool));
  bind.construct(ListInboxNotifications, [InboxRepository]);
  bind.construct(CountInboxNotifications, [InboxRepository]);
  bind.construct(ChangeInboxNotification, [InboxRepository]);
  bind.construct(DeleteInboxNotification, [InboxRepository]);
  bind.construct(ChangeInboxNotifications, [InboxRepository]);
  bind.construct(CompleteInboxAction, [InboxRepository]);

  bind.construct(StartInboxSession, [TenancyRepository, SubscriberRepository, InboxRepository, SubscriberTokens]);
  bind.construct(AuthenticateSubscriberToken, [SubscriberTokens, TenancyRepository]);
  bind.construct(InboxOrigins, [TenancyRepository]);

  // The server starts and stops the feed (PgInboxFeed); routes and sockets listen to it (InboxFeed).
  const feed = new PgInboxFeed(db.pool, (err) => logger.warn({ err }, 'inbox live feed'));
  bind.value(PgInboxFeed, feed);
  bind.value(InboxFeed, feed);
  bind.add(DeliveryObserver, new InboxLiveObserver(feed));
  bind.construct(ReadLiveInboxChanges, [InboxRepository]);
};
