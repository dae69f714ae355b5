import type pg from 'pg';

/** WAL written so far (bytes) and checkpoints started so far: a checkpoint makes the next change of every page log the whole page. */
export async function walFigures(db: { query: (sql: string) => Promise<pg.QueryResult> }): Promise<{ bytes: number; checkpoints: number }> {
  const { rows: [r] } = await db.query(
    "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text AS bytes, (num_timed + num_requested)::int AS checkpoints FROM pg_stat_checkpointer",
  );
  return { bytes: Number(r.bytes), checkpoints: r.checkpoints };
}
