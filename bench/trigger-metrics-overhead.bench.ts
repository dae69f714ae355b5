import { insertWorkflowWithSteps } from './support/fixtures';
import { report, startBenchService, summarize, type BenchService } from './support/herald';
import { runTriggerLoad } from './support/load';
import type { JobOutcome } from '@herald/domain';
import { DeliveryMetricsObserver } from '../apps/http/src/observability/delivery-metrics-observer';
import { HeraldMetrics } from '../apps/http/src/observability/metrics';

// Issue 14: what metrics cost on the trigger path. Two services, one with HERALD_METRICS=true
// (scraped every second, 15x more often than Prometheus's default) and one without, measured in
// alternating blocks so the machine's noise falls on both alike.
const BLOCKS = 10;
const PER_BLOCK = 100;
const SUSTAINED_ROUNDS = 3;
const SUSTAINED_SECONDS = 4;
const CONCURRENCY = 32;

async function prepare(svc: BenchService): Promise<void> {
  await insertWorkflowWithSteps(svc.herald.databaseUrl, { workflowId: 'bench-in-app' }, [{ type: 'in_app', controlValues: { body: 'Order {{payload.orderId}} shipped' } }]);
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'bench-user', firstName: 'Ada' } });
}

async function trigger(svc: BenchService, tag: string, i: number): Promise<void> {
  const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'bench-in-app', to: 'bench-user', payload: { orderId: i }, transactionId: `${tag}-${i}` } });
  if (res.status !== 201) throw new Error(`trigger failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function sustained(svc: BenchService): Promise<number> {
  return (await runTriggerLoad(svc, 'bench-in-app', 'bench-user', SUSTAINED_SECONDS, CONCURRENCY)).perSecond;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const overhead = (off: number, on: number) => Math.round(((on - off) / off) * 1000) / 10;

const plain = await startBenchService({ HERALD_METRICS: 'false' });
const metered = await startBenchService({ HERALD_METRICS: 'true' });
const scraper = setInterval(() => void metered.request('/metrics').then((r) => r.text()).catch(() => undefined), 1_000);
try {
  await prepare(plain);
  await prepare(metered);
  for (let i = 0; i < 200; i++) {
    await trigger(plain, 'warm', i);
    await trigger(metered, 'warm', i);
  }

  const latencies = { off: [] as number[], on: [] as number[] };
  for (let b = 0; b < BLOCKS; b++) {
    for (const [svc, samples] of b % 2 ? ([[metered, latencies.on], [plain, latencies.off]] as const) : ([[plain, latencies.off], [metered, latencies.on]] as const)) {
      for (let i = 0; i < PER_BLOCK; i++) {
        const t = performance.now();
        await trigger(svc, `seq-${b}`, i);
        samples.push(performance.now() - t);
      }
    }
  }
  const off = summarize(latencies.off);
  const on = summarize(latencies.on);
  report('trigger latency p50, metrics off', off.p50, 'ms');
  report('trigger latency p50, metrics on', on.p50, 'ms');
  report('trigger latency mean, metrics off / on', off.mean, `ms / ${on.mean} ms`);
  report('metrics overhead on sequential trigger latency (p50)', overhead(off.p50, on.p50), '%', '< 5%');

  // What metrics add to one trigger and its delivery, timed alone (immune to the machine's noise):
  // the request histogram, the trigger counter, and the observer over the in-app step's outcome.
  const metrics = new HeraldMetrics({ read: async () => ({ dueSteps: 0, lagSeconds: 0, delayedSteps: 0, openFanouts: 0, openDigests: 0 }) });
  const observer = new DeliveryMetricsObserver(metrics);
  const outcome = { job: { step: { type: 'in_app' } }, status: 'completed', providerId: 'herald', details: [{ status: 'Success', source: 'Internal', detail: 'stored', providerId: 'herald' }] } as unknown as JobOutcome;
  const N = 200_000;
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    metrics.httpDuration.observe({ method: 'POST', route: '/v1/events/trigger', status_class: '2xx' }, 0.004);
    metrics.triggers.inc({ outcome: 'accepted' });
    observer.recorded([outcome]);
  }
  const perTriggerMs = (performance.now() - started) / N;
  report('metrics work per trigger and delivery, timed alone', Math.round(perTriggerMs * 1_000_000) / 1000, 'µs');
  // Against the lower of this run's p50 and 4 ms (the idle machine's trigger p50), so a loaded run does not flatter it.
  report('that work against a trigger (p50 without metrics, at most 4 ms)', Math.round((perTriggerMs / Math.min(off.p50, 4)) * 100_000) / 1000, '%', '< 5%');

  const rates = { off: [] as number[], on: [] as number[] };
  for (let r = 0; r < SUSTAINED_ROUNDS; r++) {
    rates.off.push(await sustained(plain));
    rates.on.push(await sustained(metered));
  }
  report(`sustained triggers/s (${CONCURRENCY} connections, median of ${SUSTAINED_ROUNDS} x ${SUSTAINED_SECONDS} s), metrics off`, Math.round(median(rates.off)), 'triggers/s');
  report(`sustained triggers/s (${CONCURRENCY} connections, median of ${SUSTAINED_ROUNDS} x ${SUSTAINED_SECONDS} s), metrics on`, Math.round(median(rates.on)), 'triggers/s');
  report('metrics overhead on sustained trigger throughput', -overhead(median(rates.off), median(rates.on)), '%', '< 5%');
} finally {
  clearInterval(scraper);
  await metered.close();
  await plain.close();
}
