import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetWebhookEndpoint,
  ListWebhookAttempts,
  ListWebhookEndpoints,
  ReplayWebhookDeliveries,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentWebhookAttempt, presentWebhookEndpoint } from './webhooks.presenter';
import * as routes from './webhooks.routes';

export function webhooksRouter(resolve: Resolver) {
  const createEndpoint = resolve.get(CreateWebhookEndpoint);
  const getEndpoint = resolve.get(GetWebhookEndpoint);
  const listEndpoints = resolve.get(ListWebhookEndpoints);
  const updateEndpoint = resolve.get(UpdateWebhookEndpoint);
  const deleteEndpoint = resolve.get(DeleteWebhookEndpoint);
  const rotateSecret = resolve.get(RotateWebhookSecret);
  const listAttempts = resolve.get(ListWebhookAttempts);
  const replay = resolve.get(ReplayWebhookDeliveries);

  return createRouter()
    .openapi(routes.eventTypes, (c) => c.json({ data: [...WEBHOOK_EVENT_TYPES] }, 200))
    .openapi(routes.create, async (c) => {
      const { endpoint, secret } = await createEndpoint.execute({ environmentId: c.get('caller').environmentId, ...c.req.valid('json') });
      return c.json({ data: { ...presentWebhookEndpoint(endpoint), secret } }, 201);
    })
    .openapi(routes.list, async (c) => {
      const endpoints = await listEndpoints.execute(c.get('caller').environmentId);
      return c.json({ data: endpoints.map(presentWebhookEndpoint) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const endpoint = await getEndpoint.execute(c.get('caller').environmentId, c.req.valid('param').endpointId);
      return c.json({ data: presentWebhookEndpoint(endpoint) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const endpoint = await updateEndpoint.execute(c.get('caller').environmentId, c.req.valid('param').endpointId, c.req.valid('json'));
      return c.json({ data: presentWebhookEndpoint(endpoint) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteEndpoint.execute(c.get('caller').environmentId, c.req.valid('param').endpointId);
      return c.body(null, 204);
    })
    .openapi(routes.rotate, async (c) => {
      const overlapSeconds = (c.req.valid('json') as { overlapSeconds?: number } | undefined)?.overlapSeconds;
      const { endpoint, secret } = await rotateSecret.execute(c.get('caller').environmentId, c.req.valid('param').endpointId, overlapSeconds === undefined ? undefined : overlapSeconds * 1000);
      return c.json({ data: { ...presentWebhookEndpoint(endpoint), secret } }, 200);
    })
    .openapi(routes.attempts, async (c) => {
      const attempts = await listAttempts.execute(c.get('caller').environmentId, c.req.valid('param').endpointId, c.req.valid('query'));
      return c.json({ data: attempts.map(presentWebhookAttempt) }, 200);
    })
    .openapi(routes.replay, async (c) => {
      const body = c.req.valid('json');
      const which = body.attemptId !== undefined ? { attemptId: body.attemptId } : { since: new Date(body.since!), until: new Date(body.until!) };
      const result = await replay.execute(c.get('caller').environmentId, c.req.valid('param').endpointId, which);
      return c.json({ data: result }, 202);
    });
}
