import { createRoute } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonContent } from '../../platform/schemas';
import { OverviewSchema } from './overview.schemas';

export const overview = createRoute({
  method: 'get',
  path: '/v1/overview',
  tags: ['Overview'],
  summary: "The environment's last 24 hours (hourly) and 7 days (daily): triggers, deliveries, provider failures, delivery lag",
  description: 'Read from a rollup kept per hour (no scan of notifications); counts reach it within a few seconds.',
  responses: { 200: jsonContent(dataEnvelope(OverviewSchema), 'The overview'), ...errorResponses },
});
