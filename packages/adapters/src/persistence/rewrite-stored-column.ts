import type { Pool } from 'pg';

/** A column of secrets that a batch job rewrites: which rows still need it, and how a stored value is rewritten. */
export interface StoredColumn {
  table: string;
  column: string;
  /** jsonb (sealed values inside JSON) or text (one envelope). */
  type: 'jsonb' | 'text';
  /** SQL condition on the row: its value still needs rewriting. */
  pending: string;
  /** The value to store instead; throws when the stored one cannot be read (altered, or its key is gone). */
  rewrite: (stored: any, id: string) => unknown;
}

export interface ColumnReport {
  /** Rows this run rewrote. */
  rewritten: number;
  /** Rows still pending (written meanwhile by a process with an older key or version, say). */
  left: number;
  /** Rows whose value no key of the ring opens: left as they are, named by id in the log of the caller. */
  unreadable: string[];
}

const nextBatch = (c: StoredColumn) => `SELECT id, ${c.column} AS stored FROM ${c.table} WHERE id > $1::uuid AND ${c.pending} ORDER BY id LIMIT $2`;

// Compare-and-set: a row written since it was read (by a request, or another process running this)
// is left as that write made it, never overwritten with older values.
const writeBatch = (c: StoredColumn) => `
UPDATE ${c.table} t SET ${c.column} = v.next
FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, stored ${c.type}, next ${c.type})
WHERE t.id = v.id AND t.${c.column} = v.stored`;

/**
 * Rewrites the pending rows of a column in batches along the primary key: a short statement per
 * batch, no lock held between them, each write a compare-and-set. Idempotent, and safe beside live
 * traffic and beside other processes running it. It goes over the table again (up to three passes)
 * while rows changed under it are still pending. Versions and update times stay: what the rows say
 * has not changed.
 */
export async function rewriteStoredColumn(pool: Pool, c: StoredColumn, batchSize = 500): Promise<ColumnReport> {
  const report: ColumnReport = { rewritten: 0, left: 0, unreadable: [] };
  for (let pass = 0; pass < 3; pass++) {
    let after = '00000000-0000-0000-0000-000000000000';
    let raced = 0;
    report.unreadable = [];
    for (;;) {
      const { rows } = await pool.query<{ id: string; stored: unknown }>(nextBatch(c), [after, batchSize]);
      if (!rows.length) break;
      after = rows[rows.length - 1].id;
      const batch = rows.flatMap((r) => {
        try {
          return [{ id: r.id, stored: r.stored, next: c.rewrite(r.stored, r.id) }];
        } catch {
          report.unreadable.push(r.id);
          return [];
        }
      });
      const { rowCount } = batch.length ? await pool.query(writeBatch(c), [JSON.stringify(batch)]) : { rowCount: 0 };
      report.rewritten += rowCount ?? 0;
      raced += batch.length - (rowCount ?? 0);
    }
    if (!raced) break;
  }
  const pending = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${c.table} WHERE ${c.pending}`)).rows[0].n;
  report.left = pending - report.unreadable.length;
  return report;
}
