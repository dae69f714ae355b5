import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { CreateIntegrationSchema, IntegrationSchema, IntegrationTestRequestSchema, IntegrationTestResultSchema, UpdateIntegrationSchema } from './integrations.schemas';

const tags = ['Integrations'];
const IntegrationIdParam = z.object({
  integrationId: z.string().min(1).openapi({ description: 'Internal id (_id) or identifier' }),
});
const One = jsonContent(dataEnvelope(IntegrationSchema), 'The integration');
const Many = (description: string) => jsonContent(dataEnvelope(z.array(IntegrationSchema)), description);

export const create = createRoute({
  method: 'post',
  path: '/v1/integrations',
  tags,
  summary: 'Create an integration (credentials are validated per provider and encrypted at rest)',
  request: jsonBody(CreateIntegrationSchema),
  responses: { 201: One, ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/v1/integrations',
  tags,
  summary: 'List the integrations of the environment',
  responses: { 200: Many('Integrations, deleted ones excluded'), ...errorResponses },
});

export const listActive = createRoute({
  method: 'get',
  path: '/v1/integrations/active',
  tags,
  summary: 'List the active integrations of the environment',
  responses: { 200: Many('Active integrations'), ...errorResponses },
});

export const update = createRoute({
  method: 'put',
  path: '/v1/integrations/{integrationId}',
  tags,
  summary: 'Update an integration (given credentials are merged over the stored ones)',
  request: { params: IntegrationIdParam, ...jsonBody(UpdateIntegrationSchema) },
  responses: { 200: One, ...errorResponses },
});

export const setPrimary = createRoute({
  method: 'post',
  path: '/v1/integrations/{integrationId}/set-primary',
  tags,
  summary: "Make the integration its channel's primary (and active); the previous primary is cleared",
  request: { params: IntegrationIdParam },
  responses: { 200: One, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v1/integrations/{integrationId}',
  tags,
  summary: 'Delete an integration (soft and irreversible); returns the remaining integrations',
  request: { params: IntegrationIdParam },
  responses: { 200: Many('The integrations that remain'), ...errorResponses },
});

export const sendTest = createRoute({
  method: 'post',
  path: '/v1/integrations/{integrationId}/test',
  tags,
  summary: "Send one test message through the integration (active or not) and answer with the provider's answer; nothing is stored",
  request: { params: IntegrationIdParam, ...jsonBody(IntegrationTestRequestSchema) },
  responses: { 200: jsonContent(dataEnvelope(IntegrationTestResultSchema), "The provider's answer"), ...errorResponses },
});
