import {
  GetTopicSubscription,
  ListSubscriberSubscriptions,
  ListTopicSubscriptions,
  SubscribeToTopic,
  UnsubscribeFromTopic,
  UpdateTopicSubscription,
  type SubscriptionPreferenceInput,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import * as routes from './topic-subscriptions.routes';
import {
  presentRemovedSubscription,
  presentSubscription,
  presentSubscriptionDetails,
  presentSubscriptionListItem,
} from './topics.presenter';

/** Topic subscriptions (operations 13-16, their DELETE) and a subscriber's subscriptions (operation 9). */
export function topicSubscriptionsRouter(resolve: Resolver) {
  const subscribe = resolve.get(SubscribeToTopic);
  const unsubscribe = resolve.get(UnsubscribeFromTopic);
  const listForTopic = resolve.get(ListTopicSubscriptions);
  const listForSubscriber = resolve.get(ListSubscriberSubscriptions);
  const getSubscription = resolve.get(GetTopicSubscription);
  const updateSubscription = resolve.get(UpdateTopicSubscription);

  return createRouter()
    .openapi(routes.create, async (c) => {
      const body = c.req.valid('json');
      const result = await subscribe.execute({
        environmentId: c.get('caller').environmentId,
        topicKey: c.req.valid('param').topicKey,
        ...body,
        preferences: body.preferences as SubscriptionPreferenceInput[] | undefined,
      });
      return c.json(
        { data: result.subscriptions.map(presentSubscription), meta: result.meta, ...(result.errors.length ? { errors: result.errors } : {}) },
        201,
      );
    })
    .openapi(routes.remove, async (c) => {
      const result = await unsubscribe.execute({
        environmentId: c.get('caller').environmentId,
        topicKey: c.req.valid('param').topicKey,
        ...c.req.valid('json'),
      });
      return c.json(
        { data: result.removed.map(presentRemovedSubscription), meta: result.meta, ...(result.errors.length ? { errors: result.errors } : {}) },
        200,
      );
    })
    .openapi(routes.list, async (c) => {
      const { subscriberId, contextKeys, ...page } = c.req.valid('query');
      const result = await listForTopic.execute(c.get('caller').environmentId, c.req.valid('param').topicKey, { subscriberId, contextKeys }, toCursorQuery(page));
      return c.json({ ...result, data: result.data.map(presentSubscriptionListItem) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const { topicKey, identifier } = c.req.valid('param');
      const details = await getSubscription.execute(c.get('caller').environmentId, topicKey, identifier);
      return c.json({ data: presentSubscriptionDetails(details) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const { topicKey, identifier } = c.req.valid('param');
      const body = c.req.valid('json');
      const details = await updateSubscription.execute({
        environmentId: c.get('caller').environmentId,
        topicKey,
        identifier,
        name: body.name,
        preferences: body.preferences as SubscriptionPreferenceInput[] | undefined,
      });
      return c.json({ data: presentSubscription(details) }, 200);
    })
    .openapi(routes.listForSubscriber, async (c) => {
      const { key, contextKeys, ...page } = c.req.valid('query');
      const result = await listForSubscriber.execute(
        c.get('caller').environmentId,
        c.req.valid('param').subscriberId,
        { topicKey: key, contextKeys },
        toCursorQuery(page),
      );
      return c.json({ ...result, data: result.data.map(presentSubscriptionListItem) }, 200);
    });
}
