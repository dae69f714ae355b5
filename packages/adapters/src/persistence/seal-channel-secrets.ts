import type { ChannelSettings } from '@herald/domain';
import type { Pool } from 'pg';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { SEALED_PREFIX } from '../security/siv-value-cipher';

/** A JSONB column whose strings at `path` are sealed, and how a stored value of it is sealed. */
interface SealedColumn {
  table: string;
  column: string;
  path: string;
  seal: (cipher: ChannelCredentialCipher, stored: any) => unknown;
}

const COLUMNS: SealedColumn[] = [
  { table: 'subscribers', column: 'channels', path: '$[*].credentials.**', seal: (c, stored: ChannelSettings[]) => c.sealStored(stored) },
  { table: 'channel_endpoints', column: 'endpoint', path: '$.**', seal: (c, stored: Record<string, string>) => c.sealStoredAddress(stored) },
];

// Rows holding a string there that is not an envelope: written before sealing began.
const unsealed = ({ column, path }: SealedColumn) => `jsonb_path_exists(${column}, '${path} ? (@.type() == "string" && !(@ starts with "${SEALED_PREFIX}"))')`;

const nextBatch = (c: SealedColumn) => `SELECT id, ${c.column} AS stored FROM ${c.table} WHERE id > $1::uuid AND ${unsealed(c)} ORDER BY id LIMIT $2`;

// Compare-and-set: a row written since it was read (by a request, or another process running this)
// is left as that write made it, never overwritten with older values.
const writeBatch = (c: SealedColumn) => `
UPDATE ${c.table} t SET ${c.column} = v.sealed
FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, stored jsonb, sealed jsonb)
WHERE t.id = v.id AND t.${c.column} = v.stored`;

export interface SealReport {
  /** Rows (subscribers and channel endpoints) whose values this run sealed. */
  sealed: number;
  /** Rows still holding a value not sealed (written by a process of an older version meanwhile, say). */
  left: number;
}

/**
 * Seals the subscribers' channel credentials and the channel endpoints' addresses stored in plain
 * text (rows written before they were encrypted at rest), in batches along the primary key: one pass
 * over each table, a short statement per batch, no lock held between them. Idempotent, and safe
 * beside live traffic and beside other processes running it: sealing is deterministic and each write
 * is a compare-and-set. It goes over a table again (up to three passes) while rows changed under it
 * still hold plain text. Versions and update times stay: what the rows say has not changed.
 */
export async function sealChannelSecrets(pool: Pool, cipher: ChannelCredentialCipher, batchSize = 500): Promise<SealReport> {
  const report: SealReport = { sealed: 0, left: 0 };
  for (const c of COLUMNS) {
    let left = 0;
    for (let pass = 0; pass < 3; pass++) {
      let after = '00000000-0000-0000-0000-000000000000';
      left = 0;
      for (;;) {
        const { rows } = await pool.query<{ id: string; stored: unknown }>(nextBatch(c), [after, batchSize]);
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        const batch = rows.map((r) => ({ id: r.id, stored: r.stored, sealed: c.seal(cipher, r.stored) }));
        const { rowCount } = await pool.query(writeBatch(c), [JSON.stringify(batch)]);
        report.sealed += rowCount ?? 0;
        left += rows.length - (rowCount ?? 0);
      }
      if (!left) break;
    }
    if (left) report.left += (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${c.table} WHERE ${unsealed(c)}`)).rows[0].n;
  }
  return report;
}
