import {
  BulkCreateSubscribers,
  CreateSubscriber,
  DeleteSubscriber,
  DomainError,
  GetSubscriber,
  SearchSubscribers,
  SetSubscriberCredentials,
  SetSubscriberOnlineStatus,
  UpdateSubscriber,
  type SubscriberInput,
  type UnreadableSubscriber,
} from '@herald/domain';
import { fieldErrors } from '../../platform/default-hook';
import type { Resolver } from '../../platform/app-env';
import { errorBody } from '../../platform/errors';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { presentSubscriber } from './subscribers.presenter';
import * as routes from './subscribers.routes';
import { CreateSubscriberSchema } from './subscribers.schemas';

export function subscribersRouter(resolve: Resolver) {
  const createSubscriber = resolve.get(CreateSubscriber);
  const getSubscriber = resolve.get(GetSubscriber);
  const updateSubscriber = resolve.get(UpdateSubscriber);
  const deleteSubscriber = resolve.get(DeleteSubscriber);
  const setOnline = resolve.get(SetSubscriberOnlineStatus);
  const searchSubscribers = resolve.get(SearchSubscribers);
  const bulkCreate = resolve.get(BulkCreateSubscribers);
  const setCredentials = resolve.get(SetSubscriberCredentials);

  return createRouter()
    .openapi(routes.create, async (c) => {
      const caller = c.get('caller');
      const { failIfExists = false } = c.req.valid('query');
      const input = c.req.valid('json') as SubscriberInput;
      try {
        const { subscriber } = await createSubscriber.execute({ environmentId: caller.environmentId, subscriber: input, failIfExists });
        return c.json({ data: presentSubscriber(subscriber, caller) }, 201);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'SUBSCRIBER_ALREADY_EXISTS') throw error;
        // Existing SDKs read a 409 here as the existing subscriber: send the error and the subscriber in one body.
        const existing = await getSubscriber.execute(caller.environmentId, input.subscriberId);
        return c.json({ ...presentSubscriber(existing, caller), ...errorBody(c, 409, error.message, { code: error.code }) }, 409) as never;
      }
    })
    .openapi(routes.retrieve, async (c) => {
      const caller = c.get('caller');
      const subscriber = await getSubscriber.execute(caller.environmentId, c.req.valid('param').subscriberId);
      return c.json({ data: presentSubscriber(subscriber, caller) }, 200);
    })
    .openapi(routes.patch, async (c) => {
      const caller = c.get('caller');
      const subscriber = await updateSubscriber.execute({
        environmentId: caller.environmentId,
        subscriberId: c.req.valid('param').subscriberId,
        changes: c.req.valid('json'),
      });
      return c.json({ data: presentSubscriber(subscriber, caller) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteSubscriber.execute(c.get('caller').environmentId, c.req.valid('param').subscriberId);
      return c.json({ data: { acknowledged: true, status: 'deleted' } }, 200);
    })
    .openapi(routes.onlineStatus, async (c) => {
      const caller = c.get('caller');
      const subscriber = await setOnline.execute(caller.environmentId, c.req.valid('param').subscriberId, c.req.valid('json').isOnline);
      return c.json({ data: presentSubscriber(subscriber, caller) }, 200);
    })
    .openapi(routes.search, async (c) => {
      const caller = c.get('caller');
      const { email, name, phone, subscriberId, ...page } = c.req.valid('query');
      const result = await searchSubscribers.execute(caller.environmentId, { email, name, phone, subscriberId }, toCursorQuery(page));
      return c.json({ ...result, data: result.data.map((s) => presentSubscriber(s, caller)) }, 200);
    })
    .openapi(routes.bulkCreate, async (c) => {
      const result = await bulkCreate.execute({ environmentId: c.get('caller').environmentId, subscribers: c.req.valid('json').subscribers.map(readBulkItem) });
      return c.json({ data: result }, 201);
    })
    .openapi(routes.replaceCredentials, async (c) => {
      const caller = c.get('caller');
      const subscriber = await setCredentials.execute({ environmentId: caller.environmentId, subscriberId: c.req.valid('param').subscriberId, ...c.req.valid('json'), mode: 'replace' });
      return c.json({ data: presentSubscriber(subscriber, caller) }, 200);
    })
    .openapi(routes.mergeCredentials, async (c) => {
      const caller = c.get('caller');
      const subscriber = await setCredentials.execute({ environmentId: caller.environmentId, subscriberId: c.req.valid('param').subscriberId, ...c.req.valid('json'), mode: 'merge' });
      return c.json({ data: presentSubscriber(subscriber, caller) }, 200);
    })
    .openapi(routes.removeCredentials, async (c) => {
      const { subscriberId, providerId } = c.req.valid('param');
      await setCredentials.remove(c.get('caller').environmentId, subscriberId, providerId);
      return c.body(null, 204);
    });
}

/** An item read as strictly as the body of POST /v2/subscribers, with the same schema and messages. */
function readBulkItem(item: Record<string, unknown>): SubscriberInput | UnreadableSubscriber {
  const read = CreateSubscriberSchema.safeParse(item);
  if (read.success) return read.data;
  const subscriberId = typeof item.subscriberId === 'string' ? item.subscriberId : undefined;
  const fields = Object.entries(fieldErrors(read.error, item));
  return { subscriberId, unreadable: fields.map(([field, e]) => `${field}: ${e.messages.join(', ')}`).join('; ') };
}
