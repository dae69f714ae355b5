import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, startBenchService } from './support/herald';
import { runTriggerLoad } from './support/load';

// Issue 15: digest throughput, 10,000 events into 100 open digests (one subscriber, 100 digestKey
// values), trigger to event placed in its digest; baseline: the same 10,000 triggers through a
// workflow whose one step is a no-op custom step, trigger to step completed.
const EVENTS = 10_000;
const DIGESTS = 100;

const svc = await startBenchService();
const db = svc.herald.databaseUrl;
try {
  await insertWorkflowWithSteps(db, { workflowId: 'bench-digest' }, [
    { type: 'digest', stepId: 'digest', controlValues: { amount: 1, unit: 'hours', digestKey: 'payload.key' } },
    { type: 'in_app', stepId: 'bell', controlValues: { body: '{{ steps.digest.eventCount }} events' } },
  ]);
  await insertWorkflowWithSteps(db, { workflowId: 'bench-plain' }, [{ type: 'custom', stepId: 'noop', controlValues: {} }]);
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'digest-user' } });
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'plain-user' } });
  const done = async (stepId: string, statuses: string[]) => {
    const [{ n }] = await query<{ n: number }>(db, 'SELECT count(*)::int AS n FROM jobs WHERE step_id = $1 AND status = ANY($2)', [stepId, statuses]);
    return n;
  };
  const measure = async (workflow: string, subscriber: string, stepId: string, statuses: string[]) => {
    const started = performance.now();
    await runTriggerLoad(svc, workflow, subscriber, 0, 32, { amount: EVENTS, keys: DIGESTS });
    await waitFor(async () => (await done(stepId, statuses)) >= EVENTS, 300_000, 100);
    return Math.round(EVENTS / ((performance.now() - started) / 1000));
  };

  const plain = await measure('bench-plain', 'plain-user', 'noop', ['completed']);
  const digest = await measure('bench-digest', 'digest-user', 'digest', ['merged', 'delayed']);
  const [{ open }] = await query<{ open: number }>(db, "SELECT count(*)::int AS open FROM digest_windows WHERE status = 'open'");
  if (open !== DIGESTS) throw new Error(`expected ${DIGESTS} open digests, found ${open}`);
  report('digest throughput (10,000 events into 100 open digests)', digest, 'events/s');
  report('baseline: the same triggers through a no-op custom step', plain, 'events/s');
} finally {
  await svc.close();
}
