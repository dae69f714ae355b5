import { SqlDigestRepository, connectDatabase } from '@herald/adapters';
import { digestEntries } from './support/digest-jobs';
import { insertWorkflowWithSteps, query, waitFor } from './support/fixtures';
import { report, startBenchService } from './support/herald';
import { runTriggerLoad } from './support/load';

// Issue 15: digest throughput, 10,000 events into 100 open digests (one subscriber, 100 digestKey
// values). End to end: trigger to event placed in its digest, beside the same 10,000 triggers
// through a no-op custom step (on a loaded machine both are bound by triggers). The digest stage
// alone: the repository's set-based join in slices of 500 (as the engine runs them), beside a plain
// UPDATE of the same jobs' digest_window_id per slice (the least the join must write).
const EVENTS = 10_000;
const DIGESTS = 100;
const SLICE = 500;

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
  report('digest throughput end to end (10,000 events into 100 open digests)', digest, 'events/s');
  report('baseline: the same triggers through a no-op custom step', plain, 'events/s');

  await insertWorkflowWithSteps(db, { workflowId: 'bench-stage' }, [{ type: 'digest', stepId: 'digest', controlValues: { amount: 1, unit: 'hours', digestKey: 'payload.key' } }]);
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'stage-user' } });
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'stage-plain' } });
  const pool = connectDatabase(db, 4);
  try {
    const repository = new SqlDigestRepository(pool.pool);
    const entries = await digestEntries(db, 'bench-stage', 'stage-user', EVENTS, DIGESTS);
    let started = performance.now();
    for (let i = 0; i < entries.length; i += SLICE) await repository.enter(entries.slice(i, i + SLICE));
    const stage = Math.round(EVENTS / ((performance.now() - started) / 1000));
    const [{ windows }] = await query<{ windows: number }>(db, "SELECT count(DISTINCT digest_window_id)::int AS windows FROM jobs WHERE step_id = 'digest' AND digest_window_id IS NOT NULL AND notification_id = ANY($1::uuid[])", [entries.map((e) => e.notificationId)]);
    if (windows !== DIGESTS) throw new Error(`expected the stage's events in ${DIGESTS} digests, found ${windows}`);
    const plainEntries = await digestEntries(db, 'bench-stage', 'stage-plain', EVENTS, DIGESTS);
    const [{ id: someWindow }] = await query<{ id: string }>(db, 'SELECT id FROM digest_windows LIMIT 1');
    started = performance.now();
    for (let i = 0; i < plainEntries.length; i += SLICE) {
      await pool.pool.query('UPDATE jobs SET digest_window_id = $2 WHERE id = ANY($1::uuid[])', [plainEntries.slice(i, i + SLICE).map((e) => e.jobId), someWindow]);
    }
    const update = Math.round(EVENTS / ((performance.now() - started) / 1000));
    report('digest stage alone: join 10,000 events into 100 open digests, slices of 500', stage, 'events/s');
    report('baseline: a plain UPDATE of the same jobs per slice', update, 'events/s');
  } finally {
    await pool.close();
  }
} finally {
  await svc.close();
}
