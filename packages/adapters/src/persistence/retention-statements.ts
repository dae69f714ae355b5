// The retention purge's SQL (see SqlRetentionRepository). Every statement that removes rows also adds
// them to the day's record (retention_days) and moves its cursor, in the same statement: what is
// counted is exactly what was removed, whatever happens after.
//
// The in-flight checks are LATERAL subqueries with LIMIT 1, so each is an index probe per row: as
// plain EXISTS the planner may hash a whole table (jobs, events) to answer a thousand rows.

/** Statuses of a job whose notification is still running: waiting for its turn, its time or its digest, or running. */
const UNFINISHED_JOB = `('pending', 'queued', 'running', 'delayed')`;

/** Per notification `n` (in a FROM clause with it): whether it is in flight; `$now` is the purge's time. */
const NOTIFICATION_HELD = (now: string) => `
  LEFT JOIN LATERAL (
    SELECT 1 AS held FROM jobs j
    LEFT JOIN digest_windows w ON w.id = j.digest_window_id AND w.status = 'open'
    LEFT JOIN messages m ON m.job_id = j.id AND m.is_snoozed AND m.snoozed_until > ${now}
    WHERE j.notification_id = n.id AND (j.status IN ${UNFINISHED_JOB} OR w.id IS NOT NULL OR m.id IS NOT NULL)
    LIMIT 1
  ) busy ON true
  LEFT JOIN LATERAL (
    SELECT 1 AS held FROM messages m WHERE m.job_id = n.inline_job_id AND m.is_snoozed AND m.snoozed_until > ${now} LIMIT 1
  ) snoozed ON true
  LEFT JOIN LATERAL (SELECT 1 AS held FROM events e WHERE e.id = n.event_id AND e.status = 'fanning_out' LIMIT 1) fanning ON true`;

const HELD = '(busy.held IS NOT NULL OR snoozed.held IS NOT NULL OR fanning.held IS NOT NULL)';

/**
 * After a CTE `scanned (id, inline_job_id, held)` of notifications: removes those not held with
 * their jobs, execution details, messages (inline ones by inline_job_id) and the closed digest
 * windows they led, and yields the CTE `removed` (one row of counts). Arrays, not joins, feed the
 * deletes, so each is an index scan of its key whatever the planner thinks of the CTE's size.
 */
const REMOVE_NOTIFICATIONS = `
expired AS MATERIALIZED (
  SELECT COALESCE(array_agg(id), '{}') AS ids,
         COALESCE(array_agg(inline_job_id) FILTER (WHERE inline_job_id IS NOT NULL), '{}') AS inline_ids
  FROM scanned WHERE NOT held AND id IS NOT NULL
), expired_jobs AS MATERIALIZED (
  SELECT COALESCE(array_agg(j.id), '{}') AS ids,
         COALESCE(array_agg(j.digest_window_id) FILTER (WHERE j.digest_window_id IS NOT NULL), '{}') AS window_ids
  FROM jobs j WHERE j.notification_id = ANY((SELECT ids FROM expired)::uuid[])
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
), removed AS (
  SELECT (SELECT count(*) FROM gone) AS notifications, (SELECT count(*) FROM gone_jobs) AS jobs,
         (SELECT count(*) FROM gone_details) AS execution_details, (SELECT count(*) FROM gone_messages) AS messages,
         (SELECT count(*) FROM gone_windows) AS digest_windows, 0::bigint AS events
)`;

/** After a CTE `scanned (id, held)` of events: removes those not held; yields `removed`. */
const REMOVE_EVENTS = `
gone AS (
  DELETE FROM events WHERE id = ANY((SELECT COALESCE(array_agg(id), '{}') FROM scanned WHERE NOT held AND id IS NOT NULL)::uuid[]) RETURNING 1
), removed AS (
  SELECT 0::bigint AS notifications, 0::bigint AS jobs, 0::bigint AS execution_details, 0::bigint AS messages,
         0::bigint AS digest_windows, (SELECT count(*) FROM gone) AS events
)`;

/** Adds `removed` to the day's record ($1 environment, $2 day); `cursor` sets more columns. */
const COUNT_REMOVED = (cursor = '') => `
counted AS (
  UPDATE retention_days r SET
    notifications = r.notifications + x.notifications, jobs = r.jobs + x.jobs,
    execution_details = r.execution_details + x.execution_details, messages = r.messages + x.messages,
    digest_windows = r.digest_windows + x.digest_windows, events = r.events + x.events${cursor}
  FROM removed x WHERE r.environment_id = $1 AND r.day = $2::date
  RETURNING 1
)`;

const RESULT = `
SELECT x.*, (SELECT count(*) FROM scanned)::int AS scanned, (SELECT count(*) FROM scanned WHERE held)::int AS kept,
       (SELECT max(row_id::text) FROM scanned) AS last, (SELECT count(*) FROM counted)::int AS counted
FROM removed x`;

/**
 * Creates the day's record or locks it ($1 environment, $2 day, $3 now): concurrent batches of one
 * day take turns, each starting from the cursor the last one committed.
 */
export const LOCK_DAY = `
INSERT INTO retention_days AS r (environment_id, day, started_at) VALUES ($1, $2::date, $3)
ON CONFLICT (environment_id, day) DO UPDATE SET state = r.state
RETURNING r.state, r.notifications_at, r.notifications_id, r.events_at, r.events_id`;

/** How a pass reads one source: its rows as `alias`, the columns its removal needs, and when a row is held. */
interface Source {
  name: 'notifications' | 'events';
  alias: 'n' | 'e';
  columns: string;
  /** LATERAL joins the held test reads, with `now` the purge's time. */
  joins: (now: string) => string;
  held: string;
  remove: string;
}

const NOTIFICATIONS: Source = { name: 'notifications', alias: 'n', columns: 'n.inline_job_id', joins: NOTIFICATION_HELD, held: HELD, remove: REMOVE_NOTIFICATIONS };

const EVENTS: Source = {
  name: 'events',
  alias: 'e',
  columns: 'e.status',
  joins: () => `
  LEFT JOIN LATERAL (SELECT 1 AS held FROM notifications n WHERE n.event_id = e.id LIMIT 1) live ON true`,
  held: "(live.held IS NOT NULL OR e.status = 'fanning_out')",
  remove: REMOVE_EVENTS,
};

/**
 * The day's next rows of `source` in creation order after ($5, $6), $3..$4 the day's bounds, at
 * most $7, $8 now: removes the finished, keeps the others (retention_kept) and moves the cursor.
 */
function pass({ name, alias: a, columns, joins, held, remove }: Source): string {
  return `
WITH scanned AS MATERIALIZED (
  SELECT ${a}.id, ${a}.created_at, ${a}.id AS row_id, ${columns}, ${held} AS held
  FROM ${name} ${a} ${joins('$8::timestamptz')}
  WHERE ${a}.environment_id = $1 AND ${a}.created_at >= $3 AND ${a}.created_at < $4 AND (${a}.created_at, ${a}.id) > ($5::timestamptz, $6::uuid)
  ORDER BY ${a}.created_at, ${a}.id LIMIT $7
), last_seen AS (
  SELECT created_at, id FROM scanned ORDER BY created_at DESC, id DESC LIMIT 1
), kept AS (
  INSERT INTO retention_kept (environment_id, day, source, row_id) SELECT $1, $2::date, '${name}', id FROM scanned WHERE held
  ON CONFLICT DO NOTHING
), ${remove}, ${COUNT_REMOVED(`,
    ${name}_at = COALESCE((SELECT created_at FROM last_seen), r.${name}_at),
    ${name}_id = COALESCE((SELECT id FROM last_seen), r.${name}_id)`)}
${RESULT}`;
}

/** The day's kept rows of `source` after row id $3 (null: from the first), at most $4, $5 now: removes those finished since. */
function recheck({ name, alias: a, columns, joins, held, remove }: Source): string {
  return `
WITH scanned AS MATERIALIZED (
  SELECT ${a}.id, k.row_id, ${columns}, COALESCE(${held}, false) AS held
  FROM retention_kept k
  LEFT JOIN ${name} ${a} ON ${a}.id = k.row_id ${joins('$5::timestamptz')}
  WHERE k.environment_id = $1 AND k.day = $2::date AND k.source = '${name}' AND k.row_id > COALESCE($3::uuid, '00000000-0000-0000-0000-000000000000')
  ORDER BY k.row_id LIMIT $4
), released AS (
  DELETE FROM retention_kept k WHERE k.environment_id = $1 AND k.day = $2::date AND k.source = '${name}'
    AND k.row_id = ANY((SELECT COALESCE(array_agg(row_id), '{}') FROM scanned WHERE NOT held)::uuid[])
), ${remove}, ${COUNT_REMOVED()}
${RESULT}`;
}

export const PURGE_NOTIFICATIONS = pass(NOTIFICATIONS);
export const RECHECK_NOTIFICATIONS = recheck(NOTIFICATIONS);
export const PURGE_EVENTS = pass(EVENTS);
export const RECHECK_EVENTS = recheck(EVENTS);

const DAY_COLUMNS = `r.environment_id, r.day::text AS day, r.state, r.notifications, r.jobs, r.execution_details, r.messages,
  r.digest_windows, r.events, r.started_at, r.purged_at`;

/** Ends a run over the day ($1 environment, $2 day, $3 now): done when it keeps nothing. */
export const CLOSE_DAY = `
WITH k AS (SELECT count(*)::int AS kept FROM retention_kept WHERE environment_id = $1 AND day = $2::date),
upserted AS (
  INSERT INTO retention_days AS r (environment_id, day, started_at, state, purged_at)
  SELECT $1, $2::date, $3, CASE WHEN k.kept = 0 THEN 'purged' ELSE 'purging' END, CASE WHEN k.kept = 0 THEN $3::timestamptz END FROM k
  ON CONFLICT (environment_id, day) DO UPDATE SET state = EXCLUDED.state, purged_at = COALESCE(r.purged_at, EXCLUDED.purged_at)
  RETURNING r.*
)
SELECT ${DAY_COLUMNS}, k.kept FROM upserted r, k`;

export const LIST_DAYS = `
SELECT ${DAY_COLUMNS}, (SELECT count(*)::int FROM retention_kept k WHERE k.environment_id = r.environment_id AND k.day = r.day) AS kept
FROM retention_days r WHERE r.environment_id = $1 ORDER BY r.day DESC LIMIT $2`;

export const PROGRESS = `
SELECT day::text AS day, state FROM retention_days WHERE environment_id = $1 AND state = 'purging'
UNION ALL
(SELECT day::text, 'latest' FROM retention_days WHERE environment_id = $1 ORDER BY day DESC LIMIT 1)`;

/** The earliest creation time in [$2, $3) of the environment's notifications and events. */
export const OLDEST = `
SELECT LEAST(
  (SELECT min(created_at) FROM notifications WHERE environment_id = $1 AND created_at >= $2 AND created_at < $3),
  (SELECT min(created_at) FROM events WHERE environment_id = $1 AND created_at >= $2 AND created_at < $3)
) AS at`;
