import { CHANNEL_TYPES } from '@herald/domain';
import { z } from '@hono/zod-openapi';
import { ContextSchema } from '../../platform/schemas';

const WorkspaceSchema = z.strictObject({ id: z.string().min(1), name: z.string().optional(), botUserId: z.string().optional() });
const AuthSchema = z.strictObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().optional(),
  expiresAt: z.string().optional(),
  refreshTokenExpiresAt: z.string().optional(),
});

export const CreateChannelConnectionSchema = z
  .strictObject({
    identifier: z.string().min(1).optional(),
    subscriberId: z.string().min(1).optional(),
    context: ContextSchema.optional(),
    connectionMode: z.enum(['subscriber', 'shared']).optional(),
    integrationIdentifier: z.string().min(1),
    workspace: WorkspaceSchema,
    auth: AuthSchema,
  })
  .openapi('CreateChannelConnectionRequest');

export const UpdateChannelConnectionSchema = z
  .strictObject({ workspace: WorkspaceSchema.optional(), auth: AuthSchema.optional() })
  .openapi('UpdateChannelConnectionRequest');

export const ChannelConnectionSchema = z
  .object({
    identifier: z.string(),
    channel: z.enum(CHANNEL_TYPES).nullable(),
    providerId: z.string().nullable(),
    integrationIdentifier: z.string().nullable(),
    subscriberId: z.string().nullable(),
    contextKeys: z.array(z.string()),
    workspace: WorkspaceSchema,
    auth: AuthSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ChannelConnection');
