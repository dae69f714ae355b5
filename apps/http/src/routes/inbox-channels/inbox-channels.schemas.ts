import { z } from '@hono/zod-openapi';
import { CHANNEL_TYPES, ENDPOINT_TYPES } from '@herald/domain';
import { cursorQuerySchema, queryArray } from '../../platform/schemas';
import { ContextSchema } from '../../platform/schemas';

export const IdentifierParams = z.object({ identifier: z.string().min(1) });

/** What the client's list calls send; `subscriberId` may only name the session's own subscriber. */
export const InboxChannelListQuerySchema = cursorQuerySchema(['createdAt', 'updatedAt'] as const, 'createdAt').extend({
  subscriberId: z.string().optional(),
  integrationIdentifier: z.string().optional(),
  connectionIdentifier: z.string().optional(),
  channel: z.enum(CHANNEL_TYPES).optional(),
  providerId: z.string().optional(),
  connectionMode: z.enum(['subscriber', 'shared']).optional(),
  contextKeys: queryArray(z.string()),
});

export const ConnectionModeQuerySchema = z.object({ connectionMode: z.enum(['subscriber', 'shared']).optional() });

const WorkspaceSchema = z.object({ id: z.string().min(1), name: z.string().optional() }).strict();

export const CreateInboxConnectionSchema = z
  .object({
    identifier: z.string().min(1).optional(),
    integrationIdentifier: z.string().min(1),
    subscriberId: z.string().min(1).optional(),
    context: ContextSchema.optional(),
    workspace: WorkspaceSchema,
    auth: z.object({ accessToken: z.string().min(1) }).strict(),
  })
  .strict()
  .openapi('InboxChannelConnectionRequest');

export const CreateInboxEndpointSchema = z
  .object({
    identifier: z.string().min(1).optional(),
    integrationIdentifier: z.string().min(1),
    connectionIdentifier: z.string().min(1).optional(),
    subscriberId: z.string().min(1),
    context: ContextSchema.optional(),
    type: z.enum(ENDPOINT_TYPES),
    endpoint: z.record(z.string(), z.string()),
  })
  .strict()
  .openapi('InboxChannelEndpointRequest');

/** What the browser may see of a connection: never its tokens. */
export const InboxConnectionSchema = z
  .object({ identifier: z.string(), workspace: z.object({ id: z.string(), name: z.string().optional(), botUserId: z.string().optional() }).optional(), createdAt: z.string() })
  .openapi('InboxChannelConnection');

export const InboxEndpointSchema = z.object({ identifier: z.string(), type: z.enum(ENDPOINT_TYPES) }).openapi('InboxChannelEndpoint');

const page = <T extends z.ZodTypeAny>(item: T) => z.object({ data: z.array(item), next: z.string().nullable(), previous: z.string().nullable() });
export const InboxConnectionPageSchema = page(InboxConnectionSchema).openapi('InboxChannelConnectionPage');
export const InboxEndpointPageSchema = page(InboxEndpointSchema).openapi('InboxChannelEndpointPage');

/** The OAuth and link calls, as sent; Herald answers them with what it does instead (see the routes). */
export const OAuthRequestSchema = z
  .object({
    integrationIdentifier: z.string().min(1),
    connectionIdentifier: z.string().optional(),
    subscriberId: z.string().optional(),
    context: ContextSchema.optional(),
    contextHash: z.string().optional(),
    scope: z.array(z.string()).optional(),
    userScope: z.array(z.string()).optional(),
    mode: z.string().optional(),
    connectionMode: z.enum(['subscriber', 'shared']).optional(),
    autoLinkUser: z.boolean().optional(),
  })
  .strict();
