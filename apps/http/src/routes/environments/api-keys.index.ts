import { ManageApiKeys, type ApiKeyRecord } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { Resolver } from '../../platform/app-env';
import { dashboardAdminOnly } from '../../platform/caller-auth';
import { createRouter } from '../../platform/router';
import type { ApiKeySchema } from './environments.schemas';
import * as routes from './api-keys.routes';

function presentKey(k: ApiKeyRecord): z.infer<typeof ApiKeySchema> {
  return { id: k.id, hint: k.hint, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null };
}

/** API keys of the caller's environment, as `pnpm herald keys` manages them. */
export function apiKeysRouter(resolve: Resolver) {
  const keys = resolve.get(ManageApiKeys);
  return createRouter()
    .openapi(routes.list, async (c) => c.json({ data: (await keys.list(c.get('caller').environmentId)).map(presentKey) }, 200))
    .openapi(routes.create, async (c) => {
      dashboardAdminOnly(c, 'Creating an API key');
      const { record, key } = await keys.create(c.get('caller').environmentId);
      return c.json({ data: { ...presentKey(record), key } }, 201);
    })
    .openapi(routes.revoke, async (c) => {
      dashboardAdminOnly(c, 'Revoking an API key');
      await keys.revoke(c.req.valid('param').apiKeyId, c.get('caller').environmentId);
      return c.body(null, 204);
    });
}
