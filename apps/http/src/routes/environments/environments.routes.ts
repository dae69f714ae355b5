import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { EnvironmentSchema, EnvironmentSettingsSchema, RetryPolicyFieldsSchema, RetryPolicySchema } from './environments.schemas';

const tags = ['Environments'];

export const list = createRoute({
  method: 'get',
  path: '/v1/environments',
  tags,
  summary: "The organization's environments (a dashboard session switches between them with Herald-Environment)",
  responses: { 200: jsonContent(dataEnvelope(z.array(EnvironmentSchema)), 'The environments'), ...errorResponses },
});

export const me = createRoute({
  method: 'get',
  path: '/v1/environments/me',
  tags,
  summary: "The caller's environment, with the application identifier for the browser Inbox",
  responses: { 200: jsonContent(dataEnvelope(EnvironmentSchema), 'The environment'), ...errorResponses },
});

export const updateMe = createRoute({
  method: 'patch',
  path: '/v1/environments/me',
  tags,
  summary: "Change the environment's Inbox security: HMAC switch and allowed origins (dashboard admins only)",
  request: jsonBody(EnvironmentSettingsSchema),
  responses: { 200: jsonContent(dataEnvelope(EnvironmentSchema), 'The environment'), ...errorResponses },
});

export const retryPolicy = createRoute({
  method: 'get',
  path: '/v1/environments/me/retry-policy',
  tags,
  summary: "The environment's provider retry policy",
  responses: { 200: jsonContent(dataEnvelope(RetryPolicySchema), 'The policy'), ...errorResponses },
});

export const setRetryPolicy = createRoute({
  method: 'put',
  path: '/v1/environments/me/retry-policy',
  tags,
  summary: 'Set fields of the retry policy over the service default (dashboard admins only)',
  request: jsonBody(RetryPolicyFieldsSchema),
  responses: { 200: jsonContent(dataEnvelope(RetryPolicySchema), 'The policy'), ...errorResponses },
});

export const resetRetryPolicy = createRoute({
  method: 'delete',
  path: '/v1/environments/me/retry-policy',
  tags,
  summary: 'Follow the service default retry policy again (dashboard admins only)',
  responses: { 200: jsonContent(dataEnvelope(RetryPolicySchema), 'The policy'), ...errorResponses },
});
