import type { Pool } from 'pg';

/** Tables the prepared hot-path statements read by key. */
export const HOT_TABLES = [
  'events',
  'notifications',
  'jobs',
  'execution_details',
  'messages',
  'subscribers',
  'subscriber_preferences',
  'topics',
  'topic_subscriptions',
  'workflows',
  'workflow_steps',
];

const LOCK_KEY = 0x6865_7261; // one process at a time refreshes; the others skip that round

/** The tables of `$1` that changed by more than three times the rows they had at their last ANALYZE. */
const GROWN_TABLES = `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.schemaname = current_schema() AND s.relname = ANY($1::text[]) AND s.n_mod_since_analyze > 1000 + 3 * GREATEST(c.reltuples, 0)`;

/**
 * Refreshes the planner's statistics of the hot tables that changed by three times the rows they
 * had at their last ANALYZE (so, as a table grows, each time it has quadrupled) and returns their names.
 *
 * Why: hot statements are prepared, planned once per connection and then reused (see `prepared`).
 * A plan made while a table was small (a fresh install, the start of a burst) scans it whole, and
 * PostgreSQL re-plans only when the table's statistics change. Autovacuum's defaults (a look once a
 * minute, a 10% threshold) leave a table that grows from empty on such plans for a long time, on
 * which the trigger benchmark costs the database a quarter more CPU per trigger.
 */
export async function refreshPlannerStatistics(pool: Pool): Promise<string[]> {
  // The common round (nothing grew) is this one read: an idle service runs it every few seconds.
  const { rows: grown } = await pool.query<{ relname: string }>(GROWN_TABLES, [HOT_TABLES]);
  if (!grown.length) return [];
  const client = await pool.connect();
  // A setting or the lock that could not be undone must not go back to the pool with the connection.
  let dirty = false;
  const undo = (sql: string, values?: unknown[]) =>
    client.query(sql, values).then(
      () => undefined,
      () => void (dirty = true),
    );
  try {
    const { rows: locked } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
    if (!locked[0].ok) return [];
    try {
      // Read again under the lock: another process may have refreshed them meanwhile.
      const { rows } = await client.query<{ relname: string }>(GROWN_TABLES, [grown.map((r) => r.relname)]);
      if (!rows.length) return [];
      try {
        // One short statement per table, each giving up rather than waiting behind a maintenance lock.
        // A sample of 3,000 rows, not 30,000: enough for row counts and key plans, at a tenth of the
        // cost (a table refreshed here has just grown; autovacuum's own ANALYZE refines it soon after).
        await client.query("SET lock_timeout = '1s'");
        await client.query('SET default_statistics_target = 10');
        for (const { relname } of rows) await client.query(`ANALYZE "${relname}"`);
      } finally {
        await undo('RESET lock_timeout');
        await undo('RESET default_statistics_target');
      }
      return rows.map((r) => r.relname);
    } finally {
      await undo('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } finally {
    // A truthy argument destroys the connection instead of returning it.
    client.release(dirty || undefined);
  }
}

/** Runs `refreshPlannerStatistics` now and every `intervalMs`; the returned function stops it (after a running round). */
export function keepPlannerStatistics(pool: Pool, onError: (error: unknown) => void, intervalMs = 5_000): () => Promise<void> {
  let current: Promise<unknown> | undefined;
  const tick = () => {
    current ??= refreshPlannerStatistics(pool)
      .catch(onError)
      .finally(() => (current = undefined));
  };
  tick();
  const timer = setInterval(tick, intervalMs).unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
