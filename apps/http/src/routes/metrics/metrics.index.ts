import { Hono } from 'hono';
import type { HeraldMetrics } from '../../observability/metrics';

/** GET /metrics: Prometheus text format. Not part of the API: no key, no OpenAPI entry. */
export function metricsRouter(metrics: HeraldMetrics) {
  return new Hono().get('/metrics', async (c) => c.body(await metrics.metrics(), 200, { 'content-type': metrics.contentType }));
}
