import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../platform/router';
import { jsonContent } from '../../platform/schemas';

export interface HealthProbe {
  /** Resolves when the database answers; rejects otherwise. */
  ping(): Promise<void>;
}

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['up', 'down']) }).openapi('Health');

const route = createRoute({
  method: 'get',
  path: '/v1/health-check',
  tags: ['Health'],
  summary: 'Liveness and readiness: 200 once the database is reachable and migrated',
  responses: {
    200: jsonContent(z.object({ data: HealthSchema }), 'Ready'),
    503: jsonContent(z.object({ data: HealthSchema }), 'Database unreachable'),
  },
});

export function healthRouter(probe: HealthProbe) {
  return createRouter().openapi(route, async (c) => {
    try {
      await probe.ping();
      return c.json({ data: { status: 'ok' as const, database: 'up' as const } }, 200);
    } catch {
      return c.json({ data: { status: 'unavailable' as const, database: 'down' as const } }, 503);
    }
  });
}
