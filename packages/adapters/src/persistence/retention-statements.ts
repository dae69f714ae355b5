// The retention purge's SQL (see SqlRetentionRepository; the tables it walks are in
// retention-sources.ts). Every statement that removes rows also adds them to the day's record
// (retention_days) and moves its cursor, in the same statement: what is counted is exactly what was
// removed, whatever happens after.
import { COUNT_COLUMNS, SOURCES, type Source } from './retention-sources';

/** Adds `removed` to the day's record ($1 environment, $2 day); `cursor` sets more columns. */
const COUNT_REMOVED = (cursor = '') => `
counted AS (
  UPDATE retention_days r SET ${COUNT_COLUMNS.map((c) => `${c} = r.${c} + x.${c}`).join(', ')}${cursor}
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
RETURNING r.state, ${Object.keys(SOURCES).map((s) => `r.${s}_at, r.${s}_id`).join(', ')}`;

/**
 * The day's next rows of `source` in creation order after ($5, $6), $3..$4 the day's bounds, at
 * most $7, $8 now (if the source reads it): removes the finished, keeps the others (retention_kept) and moves the cursor.
 */
function pass({ name, columns, held, remove }: Source): string {
  return `
WITH page AS MATERIALIZED (
  SELECT ${['t.id', 't.created_at', 't.id AS row_id', ...columns].join(', ')}
  FROM ${name} t
  WHERE t.environment_id = $1 AND t.created_at >= $3 AND t.created_at < $4 AND (t.created_at, t.id) > ($5::timestamptz, $6::uuid)
  ORDER BY t.created_at, t.id LIMIT $7
), ${held('$8::timestamptz')}, last_seen AS (
  SELECT created_at, id FROM scanned ORDER BY created_at DESC, id DESC LIMIT 1
), kept AS (
  INSERT INTO retention_kept (environment_id, day, source, row_id) SELECT $1, $2::date, '${name}', id FROM scanned WHERE held
  ON CONFLICT DO NOTHING
), ${remove}, ${COUNT_REMOVED(`,
    ${name}_at = COALESCE((SELECT created_at FROM last_seen), r.${name}_at),
    ${name}_id = COALESCE((SELECT id FROM last_seen), r.${name}_id)`)}
${RESULT}`;
}

/** The day's kept rows of `source` after row id $3 (null: from the first), at most $4, $5 now (if the source reads it): removes those finished since. */
function recheck({ name, columns, held, remove }: Source): string {
  return `
WITH page AS MATERIALIZED (
  SELECT ${['t.id', 't.created_at', 'k.row_id', ...columns].join(', ')}
  FROM retention_kept k LEFT JOIN ${name} t ON t.id = k.row_id
  WHERE k.environment_id = $1 AND k.day = $2::date AND k.source = '${name}' AND k.row_id > COALESCE($3::uuid, '00000000-0000-0000-0000-000000000000')
  ORDER BY k.row_id LIMIT $4
), ${held('$5::timestamptz')}, released AS (
  DELETE FROM retention_kept k WHERE k.environment_id = $1 AND k.day = $2::date AND k.source = '${name}'
    AND k.row_id = ANY((SELECT COALESCE(array_agg(row_id), '{}') FROM scanned WHERE NOT held)::uuid[])
), ${remove}, ${COUNT_REMOVED()}
${RESULT}`;
}

/** Per source, its pass and recheck statements, and whether they take the purge's time as their last parameter. */
export const SOURCE_STATEMENTS = Object.fromEntries(
  Object.entries(SOURCES).map(([name, source]) => [name, { purge: pass(source), recheck: recheck(source), readsNow: source.readsNow }]),
) as Record<keyof typeof SOURCES, { purge: string; recheck: string; readsNow: boolean }>;

/**
 * The execution details of the batch's removed jobs ($3) that the batch's statement could not see,
 * added to the day's record ($1 environment, $2 day). A provider receipt locks its message, then
 * writes a detail: a batch that waited for that lock deleted the message, but its statement's
 * snapshot was older than the detail. Run after it, in its transaction: every receipt that locked one
 * of those messages has committed by then (later ones find the message gone and write nothing).
 */
export const LATE_DETAILS = `
WITH gone AS (
  DELETE FROM execution_details WHERE job_id = ANY($3::uuid[]) RETURNING 1
), counted AS (
  UPDATE retention_days r SET execution_details = r.execution_details + (SELECT count(*) FROM gone)
  WHERE r.environment_id = $1 AND r.day = $2::date AND EXISTS (SELECT 1 FROM gone)
)
SELECT count(*)::int AS n FROM gone`;

const DAY_COLUMNS = `r.environment_id, r.day::text AS day, r.state, ${COUNT_COLUMNS.map((c) => `r.${c}`).join(', ')}, r.started_at, r.purged_at`;

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

/** The earliest creation time in [$2, $3) of the environment's rows of every source. */
export const OLDEST = `
SELECT LEAST(${Object.keys(SOURCES)
  .map((name) => `
  (SELECT min(created_at) FROM ${name} WHERE environment_id = $1 AND created_at >= $2 AND created_at < $3)`)
  .join(',')}
) AS at`;
