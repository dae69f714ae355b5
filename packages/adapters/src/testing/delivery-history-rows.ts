import type { Pool } from 'pg';

/** Where generated history goes: a two-step workflow (in-app, then email) and its subscribers. */
export interface HistoryTarget {
  environmentId: string;
  workflowId: string;
  inAppStepId: string;
  emailStepId: string;
  subscriberIds: string[];
}

export interface HistoryOptions {
  count: number;
  /** When the first notification was created; the others follow `spacingMs` apart. */
  from: Date;
  spacingMs: number;
  /** The email job's status (default completed). */
  jobStatus?: string;
  /** The events' status (default fanned_out). */
  eventStatus?: string;
  /** Transaction ids are `<tag>-<n>`; unique per environment. */
  tag: string;
}

/** Rows a notification of `insertDeliveryHistory` brings: event, notification, email job, 2 details, 2 messages. */
export const ROWS_PER_NOTIFICATION = { events: 1, notifications: 1, jobs: 1, executionDetails: 2, messages: 2 } as const;

/** Notifications per statement: a million takes twenty statements of bounded memory. */
const CHUNK = 50_000;

// A time-ordered id of the row's own time, as the tables' uuidv7() default makes for now.
const V7 = (at: string) =>
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM ${at}) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid`;

/**
 * `count` notifications of a two-step workflow, written set-based in SQL as the service writes them:
 * each with its event, the in-app step run inline (its message keyed by inline_job_id), and an email
 * job with two execution details and its message. Ids carry each row's creation time (UUIDv7).
 */
export async function insertDeliveryHistory(pool: Pool, target: HistoryTarget, options: HistoryOptions): Promise<void> {
  for (let start = 0; start < options.count; start += CHUNK) {
    await pool.query(
      `WITH ids AS MATERIALIZED (
         SELECT g AS i, at, ${V7('at')} AS event_id, ${V7('at')} AS notification_id, ${V7('at')} AS inline_job_id, ${V7('at')} AS job_id,
                ($3::uuid[])[1 + g % cardinality($3::uuid[])] AS subscriber_id
         FROM (SELECT g, $4::timestamptz + g * $5 * interval '1 millisecond' AS at FROM generate_series($6::int, $7::int) g) t
       ), e AS (
         INSERT INTO events (id, environment_id, workflow_id, transaction_id, payload, "to", status, channels, created_at, fanned_out_at)
         SELECT event_id, $1, $2, $8 || '-' || i, jsonb_build_object('orderId', i), to_jsonb($8 || '-user'), $11, '{in_app,email}', at, at FROM ids
       ), n AS (
         INSERT INTO notifications (id, environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, inline_job_id,
           inline_workflow_step_id, inline_step_id, inline_step_type, inline_position, inline_status, created_at, updated_at)
         SELECT notification_id, $1, event_id, $2, subscriber_id, $8 || '-' || i, '{in_app,email}', inline_job_id, $9, 'bell', 'in_app', 0, 'completed', at, at FROM ids
       ), j AS (
         INSERT INTO jobs (id, environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status, provider_id, run_at, created_at, updated_at)
         SELECT job_id, $1, notification_id, subscriber_id, $10, 'mail', 'email', 1, $12, 'herald-email', at, at, at FROM ids
       ), d AS (
         INSERT INTO execution_details (environment_id, job_id, notification_id, status, detail, created_at)
         SELECT $1, job_id, notification_id, s, CASE s WHEN 'Pending' THEN 'Step queued' ELSE 'Message sent' END, at FROM ids, unnest(ARRAY['Pending', 'Success']) s
       )
       INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, subject, body, created_at, updated_at)
       SELECT $1, notification_id, CASE c WHEN 'in_app' THEN inline_job_id ELSE job_id END, subscriber_id, $8 || '-' || i, c,
              CASE c WHEN 'in_app' THEN NULL ELSE 'herald-email' END, 'Order ' || i, 'Order ' || i || ' shipped', at, at
       FROM ids, unnest(ARRAY['in_app', 'email']) c`,
      [
        target.environmentId, target.workflowId, target.subscriberIds, options.from, options.spacingMs, start, Math.min(options.count, start + CHUNK) - 1,
        options.tag, target.inAppStepId, target.emailStepId, options.eventStatus ?? 'fanned_out', options.jobStatus ?? 'completed',
      ],
    );
  }
}

/** A two-step workflow (in-app, email) and `subscribers` subscribers in the environment, for generated history. */
export async function historyTarget(pool: Pool, environmentId: string, name: string, subscribers = 10): Promise<HistoryTarget> {
  const { rows: [workflow] } = await pool.query<{ id: string }>(
    `INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, $2, $2) RETURNING id`,
    [environmentId, name],
  );
  const { rows: steps } = await pool.query<{ id: string; type: string }>(
    `INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
     VALUES ($1, 'bell', 'bell', 'in_app', 0, '{"body":"hi"}'), ($1, 'mail', 'mail', 'email', 1, '{"subject":"hi","body":"hi"}') RETURNING id, type`,
    [workflow.id],
  );
  const { rows: people } = await pool.query<{ id: string }>(
    `INSERT INTO subscribers (environment_id, subscriber_id) SELECT $1, $2 || '-' || g FROM generate_series(1, $3::int) g RETURNING id`,
    [environmentId, name, subscribers],
  );
  return {
    environmentId,
    workflowId: workflow.id,
    inAppStepId: steps.find((s) => s.type === 'in_app')!.id,
    emailStepId: steps.find((s) => s.type === 'email')!.id,
    subscriberIds: people.map((p) => p.id),
  };
}
