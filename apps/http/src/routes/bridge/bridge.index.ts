import { PromoteWorkflow, SyncBridge } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentWorkflow } from '../workflows/workflows.presenter';
import * as routes from './bridge.routes';

/** The key the caller authenticated with (the auth middleware already accepted it): the bridge verifies Herald's signatures with it. */
function callerKey(authorization: string | undefined): string {
  return /^ApiKey\s+(\S+)\s*$/i.exec(authorization ?? '')![1];
}

export function bridgeRouter(resolve: Resolver) {
  const syncBridge = resolve.get(SyncBridge);
  const promoteWorkflow = resolve.get(PromoteWorkflow);
  return createRouter()
    .openapi(routes.sync, async (c) => {
      const { environmentId } = c.get('caller');
      const { workflows } = await syncBridge.execute({ environmentId, bridgeUrl: c.req.valid('json').bridgeUrl, secretKey: callerKey(c.req.header('authorization')) });
      return c.json({ data: workflows.map(presentWorkflow) }, 201);
    })
    .openapi(routes.promote, async (c) => {
      const { workflow } = await promoteWorkflow.execute({
        sourceEnvironmentId: c.get('caller').environmentId,
        workflowId: c.req.valid('param').workflowId,
        targetEnvironmentId: c.req.valid('json').targetEnvironmentId,
      });
      return c.json({ data: presentWorkflow(workflow) }, 200);
    });
}
