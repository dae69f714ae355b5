import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, dataEnvelope, errorResponses, jsonBody, jsonContent, queryBoolean } from '../../platform/schemas';
import { CreateTopicSchema, TopicSchema, TopicSummarySchema, UpdateTopicSchema } from './topics.schemas';

const tags = ['Topics'];
export const TopicKeyParam = z.object({ topicKey: z.string().min(1) });

export const upsert = createRoute({
  method: 'post',
  path: '/v2/topics',
  tags,
  summary: 'Create a topic, or update the name of an existing key (409 with failIfExists=true)',
  request: { query: z.strictObject({ failIfExists: queryBoolean.optional() }), ...jsonBody(CreateTopicSchema) },
  responses: { 201: jsonContent(dataEnvelope(TopicSummarySchema), 'The topic'), ...errorResponses },
});

export const search = createRoute({
  method: 'get',
  path: '/v2/topics',
  tags,
  summary: 'List topics (key: exact; name: case-insensitive substring)',
  request: {
    query: cursorQuerySchema(['createdAt', 'updatedAt', 'key'] as const, 'createdAt').extend({
      key: z.string().optional(),
      name: z.string().optional(),
    }),
  },
  responses: { 200: jsonContent(cursorPageSchema(TopicSchema, 'TopicPage'), 'A page of topics'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v2/topics/{topicKey}',
  tags,
  summary: 'Retrieve a topic',
  request: { params: TopicKeyParam },
  responses: { 200: jsonContent(dataEnvelope(TopicSchema), 'The topic'), ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: '/v2/topics/{topicKey}',
  tags,
  summary: "Rename a topic",
  request: { params: TopicKeyParam, ...jsonBody(UpdateTopicSchema) },
  responses: { 200: jsonContent(dataEnvelope(TopicSummarySchema), 'The topic'), ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v2/topics/{topicKey}',
  tags,
  summary: 'Delete a topic with its subscriptions',
  request: { params: TopicKeyParam },
  responses: { 200: jsonContent(dataEnvelope(z.object({ acknowledged: z.boolean() })), 'Deleted'), ...errorResponses },
});
