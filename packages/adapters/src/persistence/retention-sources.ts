// The tables the retention purge walks (its sources), as SQL fragments for retention-statements.ts.
// A source turns a CTE `page (id, created_at, row_id, …)` of its rows (id null: gone since) into
// `scanned` (the page with `held`: in flight, kept) and then `removed` (one row of counts, in
// COUNT_COLUMNS order), deleting the rows not held with everything that belongs to them.
//
// A batch reads its rows and what they are checked against as arrays of ids (`= ANY`): one index
// scan per table over keys in order instead of a probe per row, and the jobs read for the in-flight
// check are those removed. Arrays, not joins, feed the deletes, so each is an index scan of its key
// whatever the planner thinks of a CTE's size.

/** The day record's count columns (retention_days), in the order every `removed` yields them. */
export const COUNT_COLUMNS = [
  'notifications',
  'jobs',
  'execution_details',
  'messages',
  'digest_windows',
  'events',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
] as const;
type CountColumn = (typeof COUNT_COLUMNS)[number];

/** The CTE `removed`: the given counts, zero for the other columns, then any `extra` columns. */
const removed = (counts: Partial<Record<CountColumn, string>>, extra = '') => `
removed AS (
  SELECT ${COUNT_COLUMNS.map((c) => `${counts[c] ?? '0::bigint'} AS ${c}`).join(', ')}${extra}
)`;

/** The non-null values of `column` in CTE `cte`, as a uuid[] for `= ANY`. */
const ids = (cte: string, column = 'id', where = 'true') =>
  `(SELECT COALESCE(array_agg(${column}) FILTER (WHERE ${column} IS NOT NULL AND ${where}), '{}') FROM ${cte})::uuid[]`;

/** Statuses of a job whose notification is still running: waiting for its turn, its time or its digest, or running. */
const UNFINISHED_JOB = `('pending', 'queued', 'running', 'delayed')`;

export interface Source {
  /** The table, also its name in retention_kept.source and its cursor columns (`<name>_at`, `<name>_id`). */
  name: 'notifications' | 'events' | 'webhook_events';
  /** Columns of the table (as `t`) the page carries besides id and created_at. */
  columns: string[];
  /** CTEs from `page` to `scanned`, `now` the purge's time (when `readsNow`). */
  held: (now: string) => string;
  readsNow: boolean;
  /** CTEs from `scanned` to `removed`. */
  remove: string;
}

/**
 * Held: a job unfinished or merged into a digest still open, a message snoozed until after now, or
 * its event still fanning out.
 */
const NOTIFICATIONS: Source = {
  name: 'notifications',
  columns: ['t.inline_job_id', 't.event_id'],
  readsNow: true,
  held: (now) => `
page_jobs AS MATERIALIZED (
  SELECT j.id, j.notification_id, j.status, j.digest_window_id FROM jobs j WHERE j.notification_id = ANY(${ids('page')})
), held_ids AS MATERIALIZED (
  SELECT notification_id AS id FROM page_jobs WHERE status IN ${UNFINISHED_JOB}
  UNION
  SELECT j.notification_id FROM page_jobs j
  WHERE j.digest_window_id = ANY((SELECT COALESCE(array_agg(w.id), '{}') FROM digest_windows w WHERE w.id = ANY(${ids('page_jobs', 'digest_window_id')}) AND w.status = 'open')::uuid[])
  UNION
  SELECT m.notification_id FROM messages m
  WHERE m.job_id = ANY(${ids('page_jobs')} || ${ids('page', 'inline_job_id')}) AND m.is_snoozed AND m.snoozed_until > ${now}
  UNION
  SELECT p.id FROM page p
  WHERE p.event_id = ANY((SELECT COALESCE(array_agg(e.id), '{}') FROM events e WHERE e.id = ANY(${ids('page', 'event_id')}) AND e.status = 'fanning_out')::uuid[])
), scanned AS MATERIALIZED (
  SELECT p.id, p.created_at, p.row_id, p.inline_job_id, COALESCE(p.id IN (SELECT id FROM held_ids), false) AS held FROM page p
)`,
  // A notification goes with its jobs, their execution details, its messages (inline ones by
  // inline_job_id) and the closed digest windows it led.
  remove: `
expired AS MATERIALIZED (
  SELECT ${ids('scanned', 'id', 'NOT held')} AS ids, ${ids('scanned', 'inline_job_id', 'NOT held')} AS inline_ids
), expired_jobs AS MATERIALIZED (
  SELECT COALESCE(array_agg(j.id), '{}') AS ids,
         COALESCE(array_agg(j.digest_window_id) FILTER (WHERE j.digest_window_id IS NOT NULL), '{}') AS window_ids
  FROM page_jobs j WHERE j.notification_id = ANY((SELECT ids FROM expired)::uuid[])
), gone_details AS (
  DELETE FROM execution_details WHERE job_id = ANY((SELECT ids FROM expired_jobs)::uuid[]) RETURNING 1
), gone_messages AS (
  DELETE FROM messages WHERE job_id = ANY(((SELECT ids FROM expired_jobs) || (SELECT inline_ids FROM expired))::uuid[]) RETURNING 1
), gone_windows AS (
  DELETE FROM digest_windows
  WHERE id = ANY((SELECT window_ids FROM expired_jobs)::uuid[]) AND status <> 'open' AND leader_job_id = ANY((SELECT ids FROM expired_jobs)::uuid[])
  RETURNING 1
), gone_jobs AS (
  DELETE FROM jobs WHERE id = ANY((SELECT ids FROM expired_jobs)::uuid[]) RETURNING 1
), gone AS (
  DELETE FROM notifications WHERE id = ANY((SELECT ids FROM expired)::uuid[]) RETURNING 1
), ${removed({
    notifications: '(SELECT count(*) FROM gone)',
    jobs: '(SELECT count(*) FROM gone_jobs)',
    execution_details: '(SELECT count(*) FROM gone_details)',
    messages: '(SELECT count(*) FROM gone_messages)',
    digest_windows: '(SELECT count(*) FROM gone_windows)',
  }, ', (SELECT ids FROM expired_jobs) AS removed_job_ids')}`,
};

/**
 * Held: still fanning out, or a notification of it is left. A probe per event (LIMIT 1): an event
 * of a topic may have thousands of notifications, and its pass runs after theirs, when none is left.
 */
const EVENTS: Source = {
  name: 'events',
  columns: ['t.status'],
  readsNow: false,
  held: () => `
scanned AS MATERIALIZED (
  SELECT p.id, p.created_at, p.row_id,
         COALESCE(p.status = 'fanning_out' OR EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = p.id LIMIT 1), false) AS held
  FROM page p
)`,
  remove: `
gone AS (
  DELETE FROM events WHERE id = ANY(${ids('scanned', 'id', 'NOT held')}) RETURNING 1
), ${removed({ events: '(SELECT count(*) FROM gone)' })}`,
};

/**
 * Outbound webhook events. Held: a delivery still pending (not yet sent, or retrying, or waiting for
 * a disabled endpoint). The deliveries are locked first, so a replay racing the purge either makes
 * one pending before (the event is kept) or finds it gone.
 */
const WEBHOOK_EVENTS: Source = {
  name: 'webhook_events',
  columns: [],
  readsNow: false,
  held: () => `
page_deliveries AS MATERIALIZED (
  SELECT d.id, d.event_id, d.status FROM webhook_deliveries d WHERE d.event_id = ANY(${ids('page')}) FOR UPDATE
), scanned AS MATERIALIZED (
  SELECT p.id, p.created_at, p.row_id, COALESCE(p.id IN (SELECT event_id FROM page_deliveries WHERE status = 'pending'), false) AS held FROM page p
)`,
  // An event goes with its deliveries and their attempts (the delivery log).
  remove: `
expired AS MATERIALIZED (
  SELECT ${ids('scanned', 'id', 'NOT held')} AS ids
), expired_deliveries AS MATERIALIZED (
  SELECT COALESCE(array_agg(d.id), '{}')::uuid[] AS ids FROM page_deliveries d WHERE d.event_id = ANY((SELECT ids FROM expired)::uuid[])
), gone_attempts AS (
  DELETE FROM webhook_attempts WHERE delivery_id = ANY((SELECT ids FROM expired_deliveries)::uuid[]) RETURNING 1
), gone_deliveries AS (
  DELETE FROM webhook_deliveries WHERE id = ANY((SELECT ids FROM expired_deliveries)::uuid[]) RETURNING 1
), gone AS (
  DELETE FROM webhook_events WHERE id = ANY((SELECT ids FROM expired)::uuid[]) RETURNING 1
), ${removed({
    webhook_events: '(SELECT count(*) FROM gone)',
    webhook_deliveries: '(SELECT count(*) FROM gone_deliveries)',
    webhook_attempts: '(SELECT count(*) FROM gone_attempts)',
  })}`,
};

export const SOURCES = { notifications: NOTIFICATIONS, events: EVENTS, webhook_events: WEBHOOK_EVENTS } as const;
