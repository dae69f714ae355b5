import { WEBHOOK_EVENT_TYPES } from '@herald/domain';
import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import {
  AttemptsQuerySchema,
  CreateWebhookEndpointSchema,
  ReplayWebhookSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookAttemptSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks.schemas';

const tags = ['Webhooks'];
const EndpointParam = z.object({ endpointId: z.string().min(1) });
const One = jsonContent(dataEnvelope(WebhookEndpointSchema), 'The webhook endpoint');
const base = '/v1/webhooks/endpoints';

export const eventTypes = createRoute({
  method: 'get',
  path: '/v1/webhooks/event-types',
  tags,
  summary: 'The event types an endpoint can subscribe to',
  responses: { 200: jsonContent(dataEnvelope(z.array(z.enum(WEBHOOK_EVENT_TYPES))), 'Every event type'), ...errorResponses },
});

export const create = createRoute({
  method: 'post',
  path: base,
  tags,
  summary: "Subscribe an address to the environment's events; the answer holds its signing secret, shown once",
  request: jsonBody(CreateWebhookEndpointSchema),
  responses: { 201: jsonContent(dataEnvelope(WebhookEndpointWithSecretSchema), 'The endpoint and its secret'), ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: base,
  tags,
  summary: "The environment's webhook endpoints",
  responses: { 200: jsonContent(dataEnvelope(z.array(WebhookEndpointSchema)), 'Every endpoint, oldest first'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: `${base}/{endpointId}`,
  tags,
  summary: 'Retrieve a webhook endpoint (never its secret)',
  request: { params: EndpointParam },
  responses: { 200: One, ...errorResponses },
});

export const update = createRoute({
  method: 'patch',
  path: `${base}/{endpointId}`,
  tags,
  summary: 'Change the address, description, event types, or enable/disable it',
  request: { params: EndpointParam, ...jsonBody(UpdateWebhookEndpointSchema) },
  responses: { 200: One, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: `${base}/{endpointId}`,
  tags,
  summary: 'Delete a webhook endpoint with its pending deliveries and its log',
  request: { params: EndpointParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});

export const rotate = createRoute({
  method: 'post',
  path: `${base}/{endpointId}/secret/rotate`,
  tags,
  summary: 'A new signing secret (shown once); the old one signs beside it during the overlap',
  request: { params: EndpointParam, ...jsonBody(RotateWebhookSecretSchema, false) },
  responses: { 200: jsonContent(dataEnvelope(WebhookEndpointWithSecretSchema), 'The endpoint and its new secret'), ...errorResponses },
});

export const attempts = createRoute({
  method: 'get',
  path: `${base}/{endpointId}/attempts`,
  tags,
  summary: "The endpoint's delivery log, newest first: status, response code, latency, the start of the response",
  request: { params: EndpointParam, query: AttemptsQuerySchema },
  responses: { 200: jsonContent(dataEnvelope(z.array(WebhookAttemptSchema)), 'A page of attempts'), ...errorResponses },
});

export const replay = createRoute({
  method: 'post',
  path: `${base}/{endpointId}/replay`,
  tags,
  summary: 'Send one attempt’s event, or a time range’s events, to the endpoint again (same webhook-id)',
  request: { params: EndpointParam, ...jsonBody(ReplayWebhookSchema) },
  responses: { 202: jsonContent(dataEnvelope(z.object({ queued: z.number() })), 'How many events were queued again'), ...errorResponses },
});
