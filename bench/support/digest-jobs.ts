import type { DigestEntry } from '@herald/domain';
import { query } from './fixtures';

/**
 * `count` notifications of one subscriber of workflow `workflowId` (whose first step is a digest),
 * each with a running digest job, written straight in SQL; returns their digest entries, keyed
 * `k<i % keys>`, for windows closing in an hour.
 */
export async function digestEntries(databaseUrl: string, workflowId: string, subscriberId: string, count: number, keys: number): Promise<DigestEntry[]> {
  const rows = await query<{ job_id: string; notification_id: string; environment_id: string; subscriber_id: string; step_id: string; i: number }>(
    databaseUrl,
    `WITH w AS (SELECT id, environment_id FROM workflows WHERE workflow_id = $1),
     st AS (SELECT ws.id FROM workflow_steps ws JOIN w ON ws.workflow_id = w.id WHERE ws.position = 0),
     s AS (SELECT sb.id FROM subscribers sb JOIN w ON sb.environment_id = w.environment_id WHERE sb.subscriber_id = $2),
     e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload)
           SELECT w.environment_id, w.id, 'stage-' || $2 || '-' || g, '{}', jsonb_build_object('i', g) FROM w, generate_series(1, $3) g
           RETURNING id, environment_id, workflow_id, transaction_id, (payload->>'i')::int AS i),
     n AS (INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
           SELECT e.environment_id, e.id, e.workflow_id, gen_random_uuid(), e.transaction_id FROM e
           RETURNING id, environment_id, event_id),
     j AS (INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
           SELECT n.environment_id, n.id, s.id, st.id, 'digest', 'digest', 0, 'running' FROM n, s, st RETURNING id, notification_id, environment_id, subscriber_id, workflow_step_id)
     SELECT j.id AS job_id, j.notification_id, j.environment_id, j.subscriber_id, j.workflow_step_id AS step_id, e.i
     FROM j JOIN n ON n.id = j.notification_id JOIN e ON e.id = n.event_id ORDER BY e.i`,
    [workflowId, subscriberId, count],
  );
  const closesAt = new Date(Date.now() + 3_600_000);
  return rows.map((r) => ({
    jobId: r.job_id,
    notificationId: r.notification_id,
    environmentId: r.environment_id,
    subscriberId: r.subscriber_id,
    workflowStepId: r.step_id,
    digestKey: `k${r.i % keys}`,
    closesAt,
    backoffSince: null,
    metadata: { type: 'regular', amount: 1, unit: 'hours' },
  }));
}
