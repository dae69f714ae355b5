import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, dataEnvelope, errorResponses, jsonBody, jsonContent, noContent, queryBoolean } from '../../platform/schemas';
import {
  BulkCreateResultSchema,
  BulkCreateSchema,
  CreateSubscriberSchema,
  PatchSubscriberSchema,
  SubscriberCredentialsSchema,
  SubscriberSchema,
} from './subscribers.schemas';

const tags = ['Subscribers'];
const SubscriberIdParam = z.object({ subscriberId: z.string().min(1) });
const SubscriberEnvelope = dataEnvelope(SubscriberSchema);

export const create = createRoute({
  method: 'post',
  path: '/v2/subscribers',
  tags,
  summary: 'Create a subscriber (an existing subscriberId is updated unless failIfExists=true)',
  request: { query: z.strictObject({ failIfExists: queryBoolean.optional() }), ...jsonBody(CreateSubscriberSchema) },
  responses: { 201: jsonContent(SubscriberEnvelope, 'The subscriber'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v2/subscribers/{subscriberId}',
  tags,
  summary: 'Retrieve a subscriber',
  request: { params: SubscriberIdParam },
  responses: { 200: jsonContent(SubscriberEnvelope, 'The subscriber'), ...errorResponses },
});

export const patch = createRoute({
  method: 'patch',
  path: '/v2/subscribers/{subscriberId}',
  tags,
  summary: 'Update a subscriber',
  request: { params: SubscriberIdParam, ...jsonBody(PatchSubscriberSchema) },
  responses: { 200: jsonContent(SubscriberEnvelope, 'The subscriber'), ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v2/subscribers/{subscriberId}',
  tags,
  summary: 'Delete a subscriber with its topic subscriptions and preferences',
  request: { params: SubscriberIdParam },
  responses: {
    200: jsonContent(dataEnvelope(z.object({ acknowledged: z.boolean(), status: z.string() })), 'Deleted'),
    ...errorResponses,
  },
});

export const onlineStatus = createRoute({
  method: 'patch',
  path: '/v1/subscribers/{subscriberId}/online-status',
  tags,
  summary: 'Mark a subscriber online or offline',
  request: { params: SubscriberIdParam, ...jsonBody(z.strictObject({ isOnline: z.boolean() })) },
  responses: { 200: jsonContent(SubscriberEnvelope, 'The subscriber'), ...errorResponses },
});

export const search = createRoute({
  method: 'get',
  path: '/v2/subscribers',
  tags,
  summary: 'Search subscribers (case sensitive)',
  request: {
    query: cursorQuerySchema(['createdAt', 'updatedAt', 'subscriberId'] as const, 'createdAt').extend({
      email: z.string().optional(),
      name: z.string().optional(),
      phone: z.string().optional(),
      subscriberId: z.string().optional(),
    }),
  },
  responses: { 200: jsonContent(cursorPageSchema(SubscriberSchema, 'SubscriberPage'), 'A page of subscribers'), ...errorResponses },
});

export const bulkCreate = createRoute({
  method: 'post',
  path: '/v1/subscribers/bulk',
  tags,
  summary: 'Create or update up to 500 subscribers',
  request: jsonBody(BulkCreateSchema),
  responses: { 201: jsonContent(dataEnvelope(BulkCreateResultSchema), 'Per-item outcome'), ...errorResponses },
});

const credentials = (method: 'put' | 'patch', summary: string) =>
  createRoute({
    method,
    path: '/v1/subscribers/{subscriberId}/credentials',
    tags,
    summary,
    request: { params: SubscriberIdParam, ...jsonBody(SubscriberCredentialsSchema) },
    responses: { 200: jsonContent(SubscriberEnvelope, 'The subscriber'), ...errorResponses },
  });

export const replaceCredentials = credentials('put', "Set a subscriber's channel settings for one integration (a chat webhook URL, push device tokens), replacing them");
export const mergeCredentials = credentials('patch', "Add to a subscriber's channel settings for one integration: given fields win, device tokens accumulate");

export const removeCredentials = createRoute({
  method: 'delete',
  path: '/v1/subscribers/{subscriberId}/credentials/{providerId}',
  tags,
  summary: "Remove a subscriber's channel settings of a provider",
  request: { params: SubscriberIdParam.extend({ providerId: z.string().min(1) }) },
  responses: { 204: noContent('Removed'), ...errorResponses },
});
