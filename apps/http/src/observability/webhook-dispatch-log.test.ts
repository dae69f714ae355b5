import type { WebhookAttemptResult } from '@herald/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HeraldMetrics } from './metrics';
import { WebhookDispatchLog } from './webhook-dispatch-log';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const metrics = new HeraldMetrics({ read: async () => ({ dueSteps: 0, lagSeconds: 0, delayedSteps: 0, openFanouts: 0, openDigests: null }) });
  return { log: new WebhookDispatchLog(logger, metrics), lines, metrics };
}

const counted = async (metrics: HeraldMetrics, name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values.map((v) => [v.labels.outcome ?? '', v.value]);

describe('WebhookDispatchLog', () => {
  it('tells the operator of each endpoint it disabled: a warning naming it and herald_webhook_endpoints_disabled_total', async () => {
    const { log, lines, metrics } = capture();
    log.disabled(['ep-1', 'ep-2']);
    expect(lines.map((l) => [l.level, l.endpointId, l.msg])).toEqual([
      [40, 'ep-1', 'webhook endpoint disabled: every attempt failed for too long; enable it again through the API once it answers'],
      [40, 'ep-2', 'webhook endpoint disabled: every attempt failed for too long; enable it again through the API once it answers'],
    ]);
    expect(await counted(metrics, 'herald_webhook_endpoints_disabled_total')).toEqual([['', 2]]);
  });

  it('counts attempts by outcome and warns once for a delivery whose retry schedule is spent', async () => {
    const { log, lines, metrics } = capture();
    const base: WebhookAttemptResult = { endpointId: 'ep-1', deliveryId: 'd-1', attempt: 1, succeeded: true, responseStatus: 200, responseBody: null, error: null, durationMs: 3, nextAttemptAt: null };
    log.attempted([
      base,
      { ...base, succeeded: false, responseStatus: 503, nextAttemptAt: new Date(), error: 'answered 503' },
      { ...base, deliveryId: 'd-2', attempt: 8, succeeded: false, responseStatus: 500, error: 'answered 500' },
    ]);
    expect(lines.map((l) => [l.deliveryId, l.attempts, l.msg])).toEqual([['d-2', 8, 'webhook delivery gave up: its retry schedule is spent']]);
    expect(await counted(metrics, 'herald_webhook_attempts_total')).toEqual(expect.arrayContaining([['delivered', 1], ['retrying', 1], ['failed', 1]]));
  });
});
