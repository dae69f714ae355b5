import type { Pool } from 'pg';

/**
 * One notification with one queued job for a one-step workflow of `type` (named `name`), written
 * straight in SQL into the first environment; returns the ids.
 */
export async function insertQueuedJob(pool: Pool, name: string, type: string) {
  const { rows } = await pool.query<{ notification_id: string; job_id: string; event_id: string; step_id: string }>(
    `WITH env AS (SELECT id FROM environments LIMIT 1),
     w AS (INSERT INTO workflows (environment_id, workflow_id, name) SELECT id, $1, $1 FROM env RETURNING id, environment_id),
     st AS (INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values) SELECT id, 's', 's', $2, 0, '{"body":"hi"}' FROM w RETURNING id),
     s AS (INSERT INTO subscribers (environment_id, subscriber_id) SELECT environment_id, $1 FROM w RETURNING id, environment_id),
     e AS (INSERT INTO events (environment_id, workflow_id, transaction_id, "to") SELECT w.environment_id, w.id, $1, '{}' FROM w RETURNING id, environment_id, workflow_id),
     n AS (INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id) SELECT e.environment_id, e.id, e.workflow_id, s.id, $1 FROM e, s RETURNING id, event_id, environment_id, subscriber_id),
     j AS (INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
           SELECT n.environment_id, n.id, n.subscriber_id, st.id, 's', $2, 0, 'queued' FROM n, st RETURNING id, notification_id, workflow_step_id)
     SELECT j.notification_id, j.id AS job_id, n.event_id, j.workflow_step_id AS step_id FROM j JOIN n ON n.id = j.notification_id`,
    [name, type],
  );
  return rows[0];
}
