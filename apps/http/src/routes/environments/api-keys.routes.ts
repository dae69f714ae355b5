import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonContent, noContent } from '../../platform/schemas';
import { ApiKeySchema, CreatedApiKeySchema } from './environments.schemas';

const tags = ['Environments'];

export const list = createRoute({
  method: 'get',
  path: '/v1/environments/me/api-keys',
  tags,
  summary: "The environment's API keys, by hint (never the secret)",
  responses: { 200: jsonContent(dataEnvelope(z.array(ApiKeySchema)), 'The keys'), ...errorResponses },
});

export const create = createRoute({
  method: 'post',
  path: '/v1/environments/me/api-keys',
  tags,
  summary: 'Create a secret API key, shown once in this answer (dashboard admins only)',
  responses: { 201: jsonContent(dataEnvelope(CreatedApiKeySchema), 'The key with its secret'), ...errorResponses },
});

export const revoke = createRoute({
  method: 'delete',
  path: '/v1/environments/me/api-keys/{apiKeyId}',
  tags,
  summary: 'Revoke an API key of the environment: callers using it are refused within seconds (dashboard admins only)',
  request: { params: z.object({ apiKeyId: z.string().min(1) }) },
  responses: { 204: noContent('Revoked'), ...errorResponses },
});
