import type { ChannelSettings } from '@herald/domain';
import type { Pool } from 'pg';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { SEALED_PREFIX } from '../security/siv-value-cipher';

// Subscribers holding a credential string that is not an envelope: written before sealing began.
const UNSEALED = `$[*].credentials.** ? (@.type() == "string" && !(@ starts with "${SEALED_PREFIX}"))`;

const NEXT_BATCH = `
SELECT id, subscriber_id, channels FROM subscribers
WHERE id > $1::uuid AND jsonb_path_exists(channels, '${UNSEALED}')
ORDER BY id LIMIT $2`;

// Compare-and-set: a row written since it was read (by a request, or another process running this)
// is left as that write made it, never overwritten with older settings.
const WRITE_BATCH = `
UPDATE subscribers s SET channels = v.sealed
FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, stored jsonb, sealed jsonb)
WHERE s.id = v.id AND s.channels = v.stored`;

export interface SealReport {
  /** Subscribers whose channel settings this run sealed. */
  sealed: number;
  /** Subscribers still holding a value not sealed (written by a process of an older version meanwhile, say). */
  left: number;
}

/**
 * Seals the channel credentials that subscribers hold in plain text (rows written before they were
 * encrypted at rest), in batches along the primary key: one pass over the table, a short statement
 * per batch, no lock held between them. Idempotent, and safe beside live traffic and beside other
 * processes running it: sealing is deterministic and each write is a compare-and-set. It goes over
 * the table again (up to three passes) while rows changed under it still hold plain text.
 */
export async function sealSubscriberChannels(pool: Pool, cipher: ChannelCredentialCipher, batchSize = 500): Promise<SealReport> {
  let sealed = 0;
  for (let pass = 0; pass < 3; pass++) {
    let after = '00000000-0000-0000-0000-000000000000';
    let left = 0;
    for (;;) {
      const { rows } = await pool.query<{ id: string; subscriber_id: string; channels: ChannelSettings[] }>(NEXT_BATCH, [after, batchSize]);
      if (!rows.length) break;
      after = rows[rows.length - 1].id;
      const batch = rows.map((r) => ({ id: r.id, stored: r.channels, sealed: cipher.sealStored(r.channels) }));
      const { rowCount } = await pool.query(WRITE_BATCH, [JSON.stringify(batch)]);
      sealed += rowCount ?? 0;
      left += rows.length - (rowCount ?? 0);
    }
    if (!left) return { sealed, left: 0 };
  }
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM subscribers WHERE jsonb_path_exists(channels, '${UNSEALED}')`);
  return { sealed, left: rows[0].n };
}
