import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, dataEnvelope, errorResponses, jsonBody, jsonContent, queryArray } from '../../platform/schemas';
import {
  CreateSubscriptionsResultSchema,
  CreateSubscriptionsSchema,
  DeleteSubscriptionsResultSchema,
  DeleteSubscriptionsSchema,
  UpdateSubscriptionSchema,
} from './topic-subscriptions.schemas';
import { TopicKeyParam } from './topics.routes';
import { SubscriptionDetailsSchema, SubscriptionListItemSchema, SubscriptionSchema } from './topics.schemas';

const tags = ['Topic subscriptions'];
const SubscriptionParams = TopicKeyParam.extend({ identifier: z.string().min(1) });
const SubscriptionPage = cursorPageSchema(SubscriptionListItemSchema, 'TopicSubscriptionPage');
const pageQuery = cursorQuerySchema(['createdAt', 'updatedAt'] as const, 'createdAt').extend({
  contextKeys: queryArray(z.string()).openapi({ description: 'Exact match, order insensitive (type:id)' }),
});

export const create = createRoute({
  method: 'post',
  path: '/v2/topics/{topicKey}/subscriptions',
  tags,
  summary: 'Subscribe up to 100 subscribers to a topic (created when missing)',
  request: { params: TopicKeyParam, ...jsonBody(CreateSubscriptionsSchema) },
  responses: { 201: jsonContent(CreateSubscriptionsResultSchema, 'Per-subscriber outcome'), ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v2/topics/{topicKey}/subscriptions',
  tags,
  summary: 'Remove subscriptions by subscriber id or identifier',
  request: { params: TopicKeyParam, ...jsonBody(DeleteSubscriptionsSchema) },
  responses: { 200: jsonContent(DeleteSubscriptionsResultSchema, 'Per-subscription outcome'), ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/v2/topics/{topicKey}/subscriptions',
  tags,
  summary: "List a topic's subscriptions",
  request: { params: TopicKeyParam, query: pageQuery.extend({ subscriberId: z.string().optional() }) },
  responses: { 200: jsonContent(SubscriptionPage, 'A page of subscriptions'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v2/topics/{topicKey}/subscriptions/{identifier}',
  tags,
  summary: 'Retrieve a subscription',
  request: { params: SubscriptionParams },
  responses: { 200: jsonContent(dataEnvelope(SubscriptionDetailsSchema), 'The subscription'), ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: '/v2/topics/{topicKey}/subscriptions/{identifier}',
  tags,
  summary: "Update a subscription's name or preferences",
  request: { params: SubscriptionParams, ...jsonBody(UpdateSubscriptionSchema) },
  responses: { 200: jsonContent(dataEnvelope(SubscriptionSchema), 'The subscription'), ...errorResponses },
});

export const listForSubscriber = createRoute({
  method: 'get',
  path: '/v2/subscribers/{subscriberId}/subscriptions',
  tags,
  summary: "List a subscriber's topic subscriptions",
  request: { params: z.object({ subscriberId: z.string().min(1) }), query: pageQuery.extend({ key: z.string().optional() }) },
  responses: { 200: jsonContent(SubscriptionPage, 'A page of subscriptions'), ...errorResponses },
});
