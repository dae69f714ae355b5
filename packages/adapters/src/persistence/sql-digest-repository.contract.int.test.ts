import type { DigestJobSeed } from '@herald/domain/testing/digest-repository-contract';
import { digestRepositoryContract } from '@herald/domain/testing/digest-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlDigestRepository } from './sql-digest-repository';

const database = useTestDatabase(25);

/**
 * A digest job as delivery writes it, in `env`: the workflow 'digests' with a digest step per step
 * name, a subscriber per name, the trigger's event and notification, and the job.
 */
async function digestJob(env: string, seed: DigestJobSeed) {
  const { rows } = await database.db.pool.query<{ job_id: string; notification_id: string; subscriber_id: string; step_id: string }>(
    `WITH w AS (
       INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'digests', 'digests')
       ON CONFLICT (environment_id, workflow_id) DO UPDATE SET name = EXCLUDED.name RETURNING id),
     st AS (
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position) SELECT id, $2, $2, 'digest', 0 FROM w
       ON CONFLICT (workflow_id, step_id) DO UPDATE SET name = EXCLUDED.name RETURNING id),
     s AS (
       INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, $3)
       ON CONFLICT (environment_id, subscriber_id) DO UPDATE SET subscriber_id = EXCLUDED.subscriber_id RETURNING id),
     e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload) SELECT $1, w.id, $4, '{}', $5 FROM w RETURNING id, workflow_id),
     n AS (
       INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, created_at)
       SELECT $1, e.id, e.workflow_id, s.id, $4, $6 FROM e, s RETURNING id, subscriber_id)
     INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
     SELECT $1, n.id, n.subscriber_id, st.id, $2, 'digest', 0, 'running' FROM n, st
     RETURNING id AS job_id, notification_id, subscriber_id, workflow_step_id AS step_id`,
    [env, seed.step, seed.subscriber, seed.transactionId, JSON.stringify(seed.payload), seed.createdAt],
  );
  const [r] = rows;
  return { jobId: r.job_id, notificationId: r.notification_id, environmentId: env, subscriberId: r.subscriber_id, workflowStepId: r.step_id };
}

digestRepositoryContract('PostgreSQL', async () => {
  const [env] = await contractEnvironments(database.db.pool);
  return { repo: new SqlDigestRepository(database.db.pool), digestJob: (seed) => digestJob(env, seed) };
});
