import { createRoute, z } from '@hono/zod-openapi';
import { GetEnvironment } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { dataEnvelope, errorResponses, jsonContent } from '../../platform/schemas';

const EnvironmentSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    name: z.string(),
    slug: z.string(),
    /** The public application identifier the browser Inbox is given. */
    identifier: z.string(),
    inboxHmac: z.boolean(),
    corsOrigins: z.array(z.string()),
  })
  .openapi('Environment');

const me = createRoute({
  method: 'get',
  path: '/v1/environments/me',
  tags: ['Environments'],
  summary: "The API key's environment, with the application identifier for the browser Inbox",
  responses: { 200: jsonContent(dataEnvelope(EnvironmentSchema), 'The environment'), ...errorResponses },
});

export function environmentsRouter(resolve: Resolver) {
  const getEnvironment = resolve.get(GetEnvironment);
  return createRouter().openapi(me, async (c) => {
    const e = await getEnvironment.execute(c.get('caller').environmentId);
    const data = { _id: e.id, _organizationId: e.organizationId, name: e.name, slug: e.slug, identifier: e.publicIdentifier, inboxHmac: e.inboxHmac, corsOrigins: e.corsOrigins };
    return c.json({ data }, 200);
  });
}
