import { createRoute, z } from '@hono/zod-openapi';
import { PREFERENCE_CRITICALITIES } from '@herald/domain';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { PatchPreferencesSchema, SubscriberPreferencesSchema } from './preferences.schemas';

const tags = ['Subscriber preferences'];
const SubscriberIdParam = z.object({ subscriberId: z.string().min(1) });
const PreferencesEnvelope = dataEnvelope(SubscriberPreferencesSchema);

export const retrieve = createRoute({
  method: 'get',
  path: '/v2/subscribers/{subscriberId}/preferences',
  tags,
  summary: "A subscriber's global preferences and resolved preferences for every workflow",
  request: {
    params: SubscriberIdParam,
    query: z.object({ criticality: z.enum(PREFERENCE_CRITICALITIES).default('nonCritical') }),
  },
  responses: { 200: jsonContent(PreferencesEnvelope, 'Preferences'), ...errorResponses },
});

export const patch = createRoute({
  method: 'patch',
  path: '/v2/subscribers/{subscriberId}/preferences',
  tags,
  summary: "Switch channels on or off globally, or for one workflow with workflowId; set the delivery schedule",
  request: { params: SubscriberIdParam, ...jsonBody(PatchPreferencesSchema) },
  responses: { 200: jsonContent(PreferencesEnvelope, 'Preferences'), ...errorResponses },
});
