import type { Caller, Integration } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { IntegrationSchema } from './integrations.schemas';

/** Credentials are left out: the interface returns them only to dashboard sessions, never to API keys. */
export function presentIntegration(i: Integration, caller: Caller): z.infer<typeof IntegrationSchema> {
  return {
    _id: i.id,
    _environmentId: i.environmentId,
    _organizationId: caller.organizationId,
    name: i.name,
    identifier: i.identifier,
    providerId: i.providerId,
    ...(i.channel ? { channel: i.channel } : {}),
    kind: i.kind,
    configurations: i.configurations,
    active: i.active,
    deleted: i.deleted,
    ...(i.deletedAt ? { deletedAt: i.deletedAt.toISOString() } : {}),
    ...(i.deletedBy ? { deletedBy: i.deletedBy } : {}),
    primary: i.primary,
    conditions: i.conditions,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
