import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonContent } from '../../platform/schemas';
import { ActivityNotificationSchema, ActivityPageSchema, ActivityQuerySchema, TriggerProgressSchema } from './notifications.schemas';

const tags = ['Activity'];

export const list = createRoute({
  method: 'get',
  path: '/v1/notifications',
  tags,
  summary: 'List triggered notifications (one per trigger and recipient), newest first, with filters',
  request: { query: ActivityQuerySchema },
  responses: { 200: jsonContent(ActivityPageSchema, 'A page of the activity log'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v1/notifications/{notificationId}',
  tags,
  summary: 'Retrieve a notification with its jobs, execution details and messages',
  request: { params: z.object({ notificationId: z.string().min(1) }) },
  responses: { 200: jsonContent(dataEnvelope(ActivityNotificationSchema), 'The notification'), ...errorResponses },
});

export const progress = createRoute({
  method: 'get',
  path: '/v1/notifications/{notificationId}/trigger',
  tags,
  summary: "The notification's trigger and its topic fan-out's progress: recipients expanded of total (a Herald extension)",
  request: { params: z.object({ notificationId: z.string().min(1) }) },
  responses: { 200: jsonContent(dataEnvelope(TriggerProgressSchema), 'The trigger and its progress'), ...errorResponses },
});
