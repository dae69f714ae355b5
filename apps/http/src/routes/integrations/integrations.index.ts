import {
  CreateIntegration,
  DeleteIntegration,
  ListIntegrations,
  SendIntegrationTest,
  SetPrimaryIntegration,
  UpdateIntegration,
  type Caller,
  type Integration,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentIntegration } from './integrations.presenter';
import * as routes from './integrations.routes';

/** Credentials without the state of Novu's own dashboard flows, which @novu/api sends and Herald does not keep. */
function kept<T extends { outboundConnectedAt?: string; whatsNextCompletedAt?: string }>(credentials: T | undefined) {
  if (!credentials) return credentials;
  const { outboundConnectedAt: _, whatsNextCompletedAt: __, ...rest } = credentials;
  return rest;
}

export function integrationsRouter(resolve: Resolver) {
  const createIntegration = resolve.get(CreateIntegration);
  const updateIntegration = resolve.get(UpdateIntegration);
  const listIntegrations = resolve.get(ListIntegrations);
  const setPrimary = resolve.get(SetPrimaryIntegration);
  const deleteIntegration = resolve.get(DeleteIntegration);
  const sendTest = resolve.get(SendIntegrationTest);
  const many = (items: Integration[], caller: Caller) => ({ data: items.map((i) => presentIntegration(i, caller)) });

  return createRouter()
    .openapi(routes.create, async (c) => {
      const caller = c.get('caller');
      const { _environmentId: _ignored, check: _check, credentials, ...body } = c.req.valid('json');
      const integration = await createIntegration.execute({ environmentId: caller.environmentId, ...body, credentials: kept(credentials) });
      return c.json({ data: presentIntegration(integration, caller) }, 201);
    })
    .openapi(routes.list, async (c) => {
      const caller = c.get('caller');
      return c.json(many(await listIntegrations.execute(caller.environmentId), caller), 200);
    })
    .openapi(routes.listActive, async (c) => {
      const caller = c.get('caller');
      return c.json(many(await listIntegrations.execute(caller.environmentId, { activeOnly: true }), caller), 200);
    })
    .openapi(routes.update, async (c) => {
      const caller = c.get('caller');
      const { _environmentId: _ignored, check: _check, credentials, ...changes } = c.req.valid('json');
      const integration = await updateIntegration.execute({
        environmentId: caller.environmentId,
        integrationId: c.req.valid('param').integrationId,
        ...changes,
        credentials: kept(credentials),
      });
      return c.json({ data: presentIntegration(integration, caller) }, 200);
    })
    .openapi(routes.setPrimary, async (c) => {
      const caller = c.get('caller');
      const integration = await setPrimary.execute(caller.environmentId, c.req.valid('param').integrationId);
      return c.json({ data: presentIntegration(integration, caller) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      const caller = c.get('caller');
      return c.json(many(await deleteIntegration.execute(caller.environmentId, c.req.valid('param').integrationId), caller), 200);
    })
    .openapi(routes.sendTest, async (c) => {
      const result = await sendTest.execute(c.get('caller').environmentId, c.req.valid('param').integrationId, c.req.valid('json'));
      return c.json({ data: result }, 200);
    });
}
