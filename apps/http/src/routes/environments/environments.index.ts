import { ConfigureInboxSecurity, ConfigureRetryPolicy, inboxExposure, GetEnvironment, ManageApiKeys, type Environment, type RetryPolicyView } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { Resolver } from '../../platform/app-env';
import { dashboardAdminOnly } from '../../platform/caller-auth';
import { createRouter } from '../../platform/router';
import type { EnvironmentSchema, RetryPolicySchema } from './environments.schemas';
import * as routes from './environments.routes';

/** Never the signing secret: only what the Inbox and the dashboard show. */
function presentEnvironment(e: Environment): z.infer<typeof EnvironmentSchema> {
  return {
    _id: e.id,
    _organizationId: e.organizationId,
    name: e.name,
    slug: e.slug,
    identifier: e.publicIdentifier,
    inboxHmac: e.inboxHmac,
    inboxExposure: inboxExposure(e),
    corsOrigins: e.corsOrigins,
  };
}

function presentPolicy({ effective, own }: RetryPolicyView): z.infer<typeof RetryPolicySchema> {
  return { effective, own };
}

/** The caller's environment and its settings; the environments of its organization. */
export function environmentsRouter(resolve: Resolver) {
  const getEnvironment = resolve.get(GetEnvironment);
  const keys = resolve.get(ManageApiKeys);
  const policies = resolve.get(ConfigureRetryPolicy);
  const inboxSecurity = resolve.get(ConfigureInboxSecurity);
  return createRouter()
    .openapi(routes.list, async (c) => {
      const { organizationId } = c.get('caller');
      const environments = (await keys.listEnvironments()).filter((e) => e.organizationId === organizationId);
      return c.json({ data: environments.map(presentEnvironment) }, 200);
    })
    .openapi(routes.me, async (c) => c.json({ data: presentEnvironment(await getEnvironment.execute(c.get('caller').environmentId)) }, 200))
    .openapi(routes.updateMe, async (c) => {
      dashboardAdminOnly(c, "Changing the environment's Inbox security");
      // A change raises the environment's security version: subscriber tokens issued before it end.
      const { environment } = await inboxSecurity.execute(c.get('caller').environmentId, c.req.valid('json'));
      return c.json({ data: presentEnvironment(environment) }, 200);
    })
    .openapi(routes.retryPolicy, async (c) => c.json({ data: presentPolicy(await policies.show(c.get('caller').environmentId)) }, 200))
    .openapi(routes.setRetryPolicy, async (c) => {
      dashboardAdminOnly(c, 'Changing the retry policy');
      return c.json({ data: presentPolicy(await policies.set(c.get('caller').environmentId, c.req.valid('json'))) }, 200);
    })
    .openapi(routes.resetRetryPolicy, async (c) => {
      dashboardAdminOnly(c, 'Changing the retry policy');
      return c.json({ data: presentPolicy(await policies.reset(c.get('caller').environmentId)) }, 200);
    });
}
