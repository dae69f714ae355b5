import { CHANNEL_TYPES } from '@herald/domain';
import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, dataEnvelope, errorResponses, jsonBody, jsonContent, queryArray } from '../../platform/schemas';
import { ChannelEndpointSchema, CreateChannelEndpointSchema, UpdateChannelEndpointSchema } from './channel-endpoints.schemas';

const tags = ['Channel endpoints'];
const IdentifierParam = z.object({ identifier: z.string().min(1) });
const One = jsonContent(dataEnvelope(ChannelEndpointSchema), 'The channel endpoint');

export const create = createRoute({
  method: 'post',
  path: '/v1/channel-endpoints',
  tags,
  summary: "Create a subscriber's channel endpoint (channel and provider follow from the integration)",
  request: jsonBody(CreateChannelEndpointSchema),
  responses: { 201: One, ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/v1/channel-endpoints',
  tags,
  summary: 'List channel endpoints',
  request: {
    query: cursorQuerySchema(['createdAt', 'updatedAt'] as const, 'createdAt').extend({
      subscriberId: z.string().optional(),
      contextKeys: queryArray(z.string()).openapi({ description: 'Exact match, order insensitive; repeat the parameter' }),
      channel: z.enum(CHANNEL_TYPES).optional(),
      providerId: z.string().optional(),
      integrationIdentifier: z.string().optional(),
      connectionIdentifier: z.string().optional(),
    }),
  },
  responses: { 200: jsonContent(cursorPageSchema(ChannelEndpointSchema, 'ChannelEndpointPage'), 'A page of endpoints'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v1/channel-endpoints/{identifier}',
  tags,
  summary: 'Retrieve a channel endpoint',
  request: { params: IdentifierParam },
  responses: { 200: One, ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: '/v1/channel-endpoints/{identifier}',
  tags,
  summary: 'Replace the address of a channel endpoint (validated against its type)',
  request: { params: IdentifierParam, ...jsonBody(UpdateChannelEndpointSchema) },
  responses: { 200: One, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v1/channel-endpoints/{identifier}',
  tags,
  summary: 'Delete a channel endpoint',
  request: { params: IdentifierParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});
