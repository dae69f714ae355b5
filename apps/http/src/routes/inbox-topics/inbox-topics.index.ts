import { CHANNEL_TYPES, InboxSubscriptions, type InboxCaller } from '@herald/domain';
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { AppEnv, Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentSubscriptionDetails, presentSubscriptionPreference } from '../topics/topics.presenter';
import type { SubscriptionPreferenceBodySchema } from './inbox-topics.schemas';
import * as routes from './inbox-topics.routes';

/** The session's subscriber (the Inbox router authenticated the token before these routes). */
export const inboxCaller = (c: Context<AppEnv>): InboxCaller => ({ environmentId: c.get('subscriber').environmentId, subscriberId: c.get('subscriber').subscriberId });

/** What a subscription preference change means: `enabled`, else whether any channel is on. */
export function preferenceChange(body: z.infer<typeof SubscriptionPreferenceBodySchema>) {
  const channels = CHANNEL_TYPES.map((channel) => body[channel]).filter((v): v is boolean => v !== undefined);
  const enabled = body.enabled ?? (channels.length ? channels.some(Boolean) : undefined);
  return { ...(enabled !== undefined ? { enabled } : {}), ...(body.condition !== undefined ? { condition: body.condition } : {}) };
}

/** Topic subscriptions from the Inbox (`@novu/js` `novu.subscriptions`): mounted after the Inbox router, which authenticates. */
export function inboxTopicsRouter(resolve: Resolver) {
  const subscriptions = resolve.get(InboxSubscriptions);
  return createRouter()
    .openapi(routes.list, async (c) => {
      const found = await subscriptions.list(inboxCaller(c), c.req.valid('param').topicKey);
      return c.json({ data: found.map(presentSubscriptionDetails) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const { topicKey, identifier } = c.req.valid('param');
      const found = await subscriptions.get(inboxCaller(c), topicKey, identifier, c.req.valid('query'));
      if (!found) return c.body(null, 204);
      return c.json({ data: presentSubscriptionDetails(found) }, 200);
    })
    .openapi(routes.create, async (c) => {
      const body = c.req.valid('json');
      const created = await subscriptions.create(inboxCaller(c), c.req.valid('param').topicKey, {
        identifier: body.identifier,
        name: body.name,
        topicName: body.topic?.name,
        preferences: body.preferences,
      });
      return c.json({ data: presentSubscriptionDetails(created) }, 201);
    })
    .openapi(routes.update, async (c) => {
      const { topicKey, identifier } = c.req.valid('param');
      const updated = await subscriptions.update(inboxCaller(c), topicKey, identifier, c.req.valid('json'));
      return c.json({ data: presentSubscriptionDetails(updated) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      const { topicKey, identifier } = c.req.valid('param');
      await subscriptions.remove(inboxCaller(c), topicKey, identifier);
      return c.json({ data: { success: true } }, 200);
    })
    .openapi(routes.workflowPreference, async (c) => {
      const { subscriptionIdentifier, workflowId } = c.req.valid('param');
      const applied = await subscriptions.setWorkflowPreference(inboxCaller(c), subscriptionIdentifier, workflowId, preferenceChange(c.req.valid('json')));
      return c.json({ data: presentSubscriptionPreference(applied.subscriptionId, applied) }, 200);
    });
}
