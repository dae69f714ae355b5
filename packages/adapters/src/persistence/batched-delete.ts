import type { Pool } from 'pg';

/** The most rows one DELETE of `deleteInBatches` takes. */
export const DELETE_BATCH = 5_000;

/**
 * Deletes the rows of `table` that match `condition` (SQL over its columns, `$1` being `value`),
 * DELETE_BATCH at a time, so a large backlog goes in short transactions that hold few row locks.
 * Returns how many rows went.
 */
export async function deleteInBatches(pool: Pool, table: string, condition: string, value: unknown): Promise<number> {
  const statement = `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${condition} LIMIT ${DELETE_BATCH}))`;
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(statement, [value]);
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < DELETE_BATCH) return deleted;
  }
}
