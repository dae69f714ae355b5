import type { Caller, Subscriber } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { SubscriberSchema } from './subscribers.schemas';

export function presentSubscriber(s: Subscriber, caller: Caller): z.infer<typeof SubscriberSchema> {
  return {
    _id: s.id,
    subscriberId: s.subscriberId,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    timezone: s.timezone,
    data: s.data,
    channels: s.channels,
    isOnline: s.isOnline,
    lastOnlineAt: s.lastOnlineAt?.toISOString() ?? null,
    __v: s.version,
    _organizationId: caller.organizationId,
    _environmentId: s.environmentId,
    deleted: s.deleted,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
