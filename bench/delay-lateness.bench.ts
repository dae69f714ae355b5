import { monitorEventLoopDelay } from 'node:perf_hooks';
import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, startBenchService, summarize } from './support/herald';
import { runTriggerLoad } from './support/load';

// Issue 15: how late a due delayed step starts (its handler runs) after its due time, while 1,000
// delays per second are being scheduled; baseline: the same delays scheduled one at a time on an
// idle service. Lateness is what each delay job records when it ends (jobs.output.lateMs).
const RATE = 1_000;
const SECONDS = 10;
const IDLE = 50;

const svc = await startBenchService();
const db = svc.herald.databaseUrl;
try {
  await insertWorkflowWithSteps(db, { workflowId: 'bench-delay' }, [
    { type: 'delay', stepId: 'wait', controlValues: { amount: 1, unit: 'seconds' } },
    { type: 'in_app', stepId: 'bell', controlValues: { body: 'Order {{payload.orderId}} shipped' } },
  ]);
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'idle-user' } });
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'load-user' } });
  const lateness = (subscriberId: string) =>
    query<{ late: number }>(
      db,
      `SELECT (j.output->>'lateMs')::int AS late FROM jobs j JOIN notifications n ON n.id = j.notification_id JOIN subscribers s ON s.id = n.subscriber_id
       WHERE s.subscriber_id = $1 AND j.step_id = 'wait' AND j.status = 'completed'`,
      [subscriberId],
    );

  for (let i = 0; i < IDLE; i++) {
    await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'bench-delay', to: 'idle-user', payload: { orderId: i } } });
    await new Promise((r) => setTimeout(r, 20));
  }
  await waitFor(async () => (await lateness('idle-user')).length === IDLE, 30_000, 100);
  const idle = summarize((await lateness('idle-user')).map((r) => r.late));

  // The service runs in this process: its event-loop delay shows how much of the lateness is CPU starvation.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const load = await runTriggerLoad(svc, 'bench-delay', 'load-user', SECONDS, 32, { overallRate: RATE });
  await waitFor(async () => (await lateness('load-user')).length >= load.total, 120_000, 250);
  const loaded = summarize((await lateness('load-user')).map((r) => r.late));
  loop.disable();

  report('delays scheduled per second', Math.round(load.total / SECONDS), 'delays/s', `${RATE}`);
  report('due-step lateness p50 (idle baseline)', idle.p50, 'ms');
  report('due-step lateness p99 (idle baseline)', idle.p99, 'ms');
  report('due-step lateness p50 (while scheduling)', loaded.p50, 'ms');
  report('due-step lateness p99 (while scheduling)', loaded.p99, 'ms', '< 100 ms');
  report('service event-loop delay p99 (while scheduling)', Math.round(loop.percentile(99) / 1e6), 'ms');
} finally {
  await svc.close();
}
