import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { SubscriptionDetailsSchema, SubscriptionPreferenceSchema } from '../topics/topics.schemas';
import {
  CreateInboxSubscriptionSchema,
  SubscriptionParams,
  SubscriptionPreferenceBodySchema,
  SubscriptionPreferenceParams,
  SubscriptionQuerySchema,
  TopicParams,
  UpdateInboxSubscriptionSchema,
} from './inbox-topics.schemas';

const tags = ['Subscriber inbox'];
const security = [{ SubscriberToken: [] }];
const BASE = '/v1/inbox/topics/{topicKey}/subscriptions';
const Details = jsonContent(dataEnvelope(SubscriptionDetailsSchema), 'The subscription');

export const list = createRoute({
  method: 'get',
  path: BASE,
  tags,
  security,
  summary: "The session subscriber's subscriptions to a topic",
  request: { params: TopicParams },
  responses: { 200: jsonContent(dataEnvelope(z.array(SubscriptionDetailsSchema)), 'Subscriptions'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: `${BASE}/{identifier}`,
  tags,
  security,
  summary: "One of the session subscriber's subscriptions (204 when it has none by that identifier)",
  request: { params: SubscriptionParams, query: SubscriptionQuerySchema },
  responses: { 200: Details, 204: { description: 'No such subscription of this subscriber' }, ...errorResponses },
});

export const create = createRoute({
  method: 'post',
  path: BASE,
  tags,
  security,
  summary: 'Subscribe the session subscriber to a topic (created when missing)',
  request: { params: TopicParams, ...jsonBody(CreateInboxSubscriptionSchema) },
  responses: { 201: Details, ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: `${BASE}/{identifier}`,
  tags,
  security,
  summary: "Rename a subscription or replace its preferences",
  request: { params: SubscriptionParams, ...jsonBody(UpdateInboxSubscriptionSchema) },
  responses: { 200: Details, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: `${BASE}/{identifier}`,
  tags,
  security,
  summary: 'Unsubscribe the session subscriber',
  request: { params: SubscriptionParams },
  responses: { 200: jsonContent(dataEnvelope(z.object({ success: z.boolean() })), 'Removed'), ...errorResponses },
});

export const workflowPreference = createRoute({
  method: 'patch',
  path: '/v1/inbox/subscriptions/{subscriptionIdentifier}/preferences/{workflowId}',
  tags,
  security,
  summary: 'Turn one workflow of a subscription on or off, or set its condition',
  request: { params: SubscriptionPreferenceParams, ...jsonBody(SubscriptionPreferenceBodySchema) },
  responses: { 200: jsonContent(dataEnvelope(SubscriptionPreferenceSchema), 'The preference as it now applies'), ...errorResponses },
});
