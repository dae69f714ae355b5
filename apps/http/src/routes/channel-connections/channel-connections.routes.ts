import { CHANNEL_TYPES } from '@herald/domain';
import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, dataEnvelope, errorResponses, jsonBody, jsonContent, queryArray } from '../../platform/schemas';
import { ChannelConnectionSchema, CreateChannelConnectionSchema, UpdateChannelConnectionSchema } from './channel-connections.schemas';

const tags = ['Channel connections'];
const IdentifierParam = z.object({ identifier: z.string().min(1) });
const One = jsonContent(dataEnvelope(ChannelConnectionSchema), 'The channel connection');

export const create = createRoute({
  method: 'post',
  path: '/v1/channel-connections',
  tags,
  summary: 'Create a channel connection (its access token is encrypted at rest)',
  request: jsonBody(CreateChannelConnectionSchema),
  responses: { 201: One, ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/v1/channel-connections',
  tags,
  summary: 'List channel connections',
  request: {
    query: cursorQuerySchema(['createdAt', 'updatedAt'] as const, 'createdAt').extend({
      subscriberId: z.string().optional(),
      channel: z.enum(CHANNEL_TYPES).optional(),
      providerId: z.string().optional(),
      integrationIdentifier: z.string().optional(),
      contextKeys: queryArray(z.string()).openapi({ description: 'Exact match, order insensitive; repeat the parameter' }),
      connectionMode: z.enum(['subscriber', 'shared']).optional(),
    }),
  },
  responses: { 200: jsonContent(cursorPageSchema(ChannelConnectionSchema, 'ChannelConnectionPage'), 'A page of connections'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v1/channel-connections/{identifier}',
  tags,
  summary: 'Retrieve a channel connection',
  request: { params: IdentifierParam },
  responses: { 200: One, ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: '/v1/channel-connections/{identifier}',
  tags,
  summary: 'Replace the workspace or the auth of a channel connection',
  request: { params: IdentifierParam, ...jsonBody(UpdateChannelConnectionSchema) },
  responses: { 200: One, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v1/channel-connections/{identifier}',
  tags,
  summary: 'Delete a channel connection (endpoints using it stay, without it)',
  request: { params: IdentifierParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});
