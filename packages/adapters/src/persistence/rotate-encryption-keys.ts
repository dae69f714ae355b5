import type { Pool } from 'pg';
import { AesGcmCredentialCipher, gcmEnvelopePrefix } from '../security/aes-gcm-credential-cipher';
import { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import type { EncryptionKeyring } from '../security/encryption-keyring';
import { SEALED_PREFIX } from '../security/siv-value-cipher';
import { rewriteStoredColumn, type ColumnReport, type StoredColumn } from './rewrite-stored-column';
import { sealedColumns } from './seal-channel-secrets';

/** The text columns holding one AES-GCM envelope (CredentialCipher) each. */
const ENVELOPES = [
  { table: 'integrations', column: 'credentials' },
  { table: 'channel_connections', column: 'auth' },
  { table: 'webhook_endpoints', column: 'secrets' },
  { table: 'api_keys', column: 'secret_encrypted' },
];

function columns(ring: EncryptionKeyring): StoredColumn[] {
  // Key ids are base64url: safe inside the quoted literals below.
  const siv = `${SEALED_PREFIX}${ring.currentId}.`;
  const gcm = gcmEnvelopePrefix(ring.currentId);
  const credentials = new AesGcmCredentialCipher(ring);
  return [
    ...sealedColumns(new ChannelCredentialCipher(ring), `!(@ starts with "${siv}")`),
    ...ENVELOPES.map(({ table, column }): StoredColumn => ({
      table,
      column,
      type: 'text',
      pending: `${column} IS NOT NULL AND NOT starts_with(${column}, '${gcm}')`,
      rewrite: (stored: string) => credentials.encrypt(credentials.decrypt(stored)),
    })),
  ];
}

export type RotationReport = Array<{ table: string; column: string } & ColumnReport>;

/**
 * Re-encrypts every stored secret under the ring's current key: the sealed values (subscribers'
 * channel credentials, channel endpoints' addresses, plain ones sealed on the way) and the
 * credential envelopes (integrations, channel connections, webhook endpoint secrets, API key
 * secrets). Batched compare-and-set (rewriteStoredColumn): safe while the service runs, and a run
 * cut short is finished by running it again. Values no key of the ring opens are left and reported.
 */
export async function rotateEncryptionKeys(pool: Pool, ring: EncryptionKeyring, batchSize = 500): Promise<RotationReport> {
  const report: RotationReport = [];
  for (const c of columns(ring)) report.push({ table: c.table, column: c.column, ...(await rewriteStoredColumn(pool, c, batchSize)) });
  return report;
}

/** How many stored values each key id wrote, per column: `plain` (not sealed yet) and `v1` (an envelope from before key ids) apart. */
export async function encryptionKeyStatus(pool: Pool): Promise<Array<{ table: string; column: string; key: string; values: number }>> {
  const keyOf = (v: string) => `CASE WHEN starts_with(${v}, '${SEALED_PREFIX}') THEN split_part(${v}, '.', 2) ELSE 'plain' END`;
  const sealed = [
    { table: 'subscribers', column: 'channels', path: '$[*].credentials.** ? (@.type() == "string")' },
    { table: 'channel_endpoints', column: 'endpoint', path: '$.** ? (@.type() == "string")' },
    // Strict: lax mode's unwrapping makes .** return an array's strings twice. Silent: a setting without credentials is skipped.
  ].map(({ table, column, path }) => `SELECT '${table}' AS t, '${column}' AS c, ${keyOf('v #>> \'{}\'')} AS key FROM ${table}, jsonb_path_query(${column}, 'strict ${path}', '{}', true) v`);
  const envelopes = ENVELOPES.map(
    ({ table, column }) => `SELECT '${table}', '${column}', CASE WHEN starts_with(${column}, 'v2.') THEN split_part(${column}, '.', 2) ELSE split_part(${column}, '.', 1) END FROM ${table} WHERE ${column} IS NOT NULL`,
  );
  const { rows } = await pool.query<{ t: string; c: string; key: string; n: number }>(
    `SELECT t, c, key, count(*)::int AS n FROM (${[...sealed, ...envelopes].join(' UNION ALL ')}) s GROUP BY t, c, key ORDER BY t, c, key`,
  );
  return rows.map((r) => ({ table: r.t, column: r.c, key: r.key, values: r.n }));
}
