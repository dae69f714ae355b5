import type { ChannelSettings } from '@herald/domain';
import type { Pool } from 'pg';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { SEALED_PREFIX } from '../security/siv-value-cipher';
import { rewriteStoredColumn, type StoredColumn } from './rewrite-stored-column';

/** The JSONB columns of sealed values, with where in them the values are: rows holding a string there for which `still` holds are pending. */
export function sealedColumns(cipher: ChannelCredentialCipher, still: string): StoredColumn[] {
  const pending = (column: string, path: string) => `jsonb_path_exists(${column}, '${path} ? (@.type() == "string" && ${still})')`;
  return [
    { table: 'subscribers', column: 'channels', type: 'jsonb', pending: pending('channels', '$[*].credentials.**'), rewrite: (stored: ChannelSettings[], id) => cipher.sealStored(stored, id) },
    { table: 'channel_endpoints', column: 'endpoint', type: 'jsonb', pending: pending('endpoint', '$.**'), rewrite: (stored: Record<string, string>, id) => cipher.sealStoredAddress(stored, id) },
  ];
}

export interface SealReport {
  /** Rows (subscribers and channel endpoints) whose values this run sealed. */
  sealed: number;
  /** Rows still holding a value not sealed (written by a process of an older version meanwhile, say). */
  left: number;
}

/**
 * Seals the subscribers' channel credentials and the channel endpoints' addresses stored in plain
 * text (rows written before they were encrypted at rest): see rewriteStoredColumn for how it runs
 * beside live traffic. Sealing is deterministic, so a re-run changes nothing twice.
 */
export async function sealChannelSecrets(pool: Pool, cipher: ChannelCredentialCipher, batchSize = 500): Promise<SealReport> {
  const report: SealReport = { sealed: 0, left: 0 };
  // Rows holding a string that is not an envelope: written before sealing began.
  for (const c of sealedColumns(cipher, `!(@ starts with "${SEALED_PREFIX}")`)) {
    const { rewritten, left, unreadable } = await rewriteStoredColumn(pool, c, batchSize);
    report.sealed += rewritten;
    report.left += left + unreadable.length;
  }
  return report;
}
