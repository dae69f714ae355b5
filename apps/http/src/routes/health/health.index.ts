import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../platform/router';
import { jsonContent } from '../../platform/schemas';

export interface ReadinessFigures {
  migrations: { applied: number; pending: string[] };
  delivery: { lagSeconds: number; dueSteps: number };
}

export interface HealthProbe {
  /** Resolves when the database answers; rejects otherwise. */
  ping(): Promise<void>;
  /** Migration state and delivery backlog; rejects when the database does not answer. */
  readiness(): Promise<ReadinessFigures>;
  /** Readiness fails while the delivery lag is above this. */
  maxLagSeconds: number;
}

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['up', 'down']) }).openapi('Health');

const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.enum(['up', 'down']),
    migrations: z.object({ applied: z.number().int(), pending: z.array(z.string()) }).nullable(),
    delivery: z.object({ lagSeconds: z.number(), maxLagSeconds: z.number(), dueSteps: z.number().int() }).nullable(),
    reasons: z.array(z.string()),
  })
  .openapi('Readiness');

const route = createRoute({
  method: 'get',
  path: '/v1/health-check',
  tags: ['Health'],
  summary: 'Liveness: 200 while the process serves and the database answers',
  responses: {
    200: jsonContent(z.object({ data: HealthSchema }), 'Live'),
    503: jsonContent(z.object({ data: HealthSchema }), 'Database unreachable'),
  },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/v1/health-check/ready',
  tags: ['Health'],
  summary: 'Readiness: the database answers, every migration is applied, and delivery lag is under its threshold',
  responses: {
    200: jsonContent(z.object({ data: ReadinessSchema }), 'Ready, with the figures'),
    503: jsonContent(z.object({ data: ReadinessSchema }), 'Not ready, with the figures and the reasons'),
  },
});

export function healthRouter(probe: HealthProbe) {
  return createRouter()
    .openapi(route, async (c) => {
      try {
        await probe.ping();
        return c.json({ data: { status: 'ok' as const, database: 'up' as const } }, 200);
      } catch {
        return c.json({ data: { status: 'unavailable' as const, database: 'down' as const } }, 503);
      }
    })
    .openapi(readyRoute, async (c) => {
      let figures: ReadinessFigures;
      try {
        figures = await probe.readiness();
      } catch (error) {
        const data = { status: 'not_ready' as const, database: 'down' as const, migrations: null, delivery: null, reasons: [`database unreachable: ${(error as Error).message}`] };
        return c.json({ data }, 503);
      }
      const { migrations, delivery } = figures;
      const reasons = [
        ...(migrations.pending.length ? [`${migrations.pending.length} migration(s) not applied: ${migrations.pending.join(', ')}`] : []),
        ...(delivery.lagSeconds > probe.maxLagSeconds ? [`delivery lag ${delivery.lagSeconds} s is above ${probe.maxLagSeconds} s`] : []),
      ];
      const data = {
        status: reasons.length ? ('not_ready' as const) : ('ready' as const),
        database: 'up' as const,
        migrations,
        delivery: { ...delivery, maxLagSeconds: probe.maxLagSeconds },
        reasons,
      };
      return c.json({ data }, reasons.length ? 503 : 200);
    });
}
