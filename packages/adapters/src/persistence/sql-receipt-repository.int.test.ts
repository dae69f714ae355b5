import { statusAfterReceipt, type DeliveryReceipt, type ReceiptChange } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { contractEnvironments } from '../testing/contract-environments';
import { insertQueuedJob } from '../testing/job-rows';
import { useTestDatabase } from '../testing/use-test-database';
import { MESSAGE_BY_PROVIDER_ID, SqlReceiptRepository } from './sql-receipt-repository';

const database = useTestDatabase();
const cipher = new AesGcmCredentialCipher(Buffer.alloc(32, 3));

const change = (receipt: Partial<DeliveryReceipt> = {}): ReceiptChange => {
  const full: DeliveryReceipt = { receiptId: 'ev-1', providerMessageId: 'p-1', event: 'delivered', detail: 'SendGrid: delivered', raw: '{"event":"delivered"}', ...receipt };
  return { receipt: full, status: (current) => statusAfterReceipt(current, full.event), detailStatus: full.event === 'bounced' ? 'Failed' : 'Success' };
};

async function setup() {
  const pool = database.db.pool;
  const q = <T = any>(sql: string, params: unknown[] = []) => pool.query(sql, params).then((r) => r.rows as T[]);
  const [a, b] = await contractEnvironments(pool);
  // The job lands in whichever environment comes first; the other is "elsewhere".
  const job = await insertQueuedJob(pool, `rcpt-${Math.random()}`, 'email');
  const [{ environment_id: env, subscriber_id: subscriber }] = await q('SELECT environment_id, subscriber_id FROM jobs WHERE id = $1', [job.job_id]);
  const elsewhere = env === a ? b : a;
  const integration = async (environmentId: string, identifier: string, deleted = false) =>
    (await q<{ id: string }>(
      `INSERT INTO integrations (environment_id, name, identifier, provider_id, channel, credentials, deleted) VALUES ($1, $2, $2, 'sendgrid', 'email', $3, $4) RETURNING id`,
      [environmentId, `${identifier}-${job.job_id}`, cipher.encrypt({ apiKey: 'SG.k', signingSecret: 'verification-key' }), deleted],
    ))[0].id;
  const [mine, sibling, foreign, gone] = [await integration(env, 'mine'), await integration(env, 'sibling'), await integration(elsewhere, 'foreign'), await integration(env, 'gone', true)];
  const [message] = await q<{ id: string }>(
    `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, integration_id, body, status, provider_message_id)
     VALUES ($1, $2, $3, $4, 'tx', 'email', 'sendgrid', $5, 'Hi', 'sent', 'p-1') RETURNING id`,
    [env, job.notification_id, job.job_id, subscriber, mine],
  );
  const repo = new SqlReceiptRepository(pool, cipher);
  const read = async () => ({
    status: (await q('SELECT status FROM messages WHERE id = $1', [message.id]))[0].status as string,
    details: await q(`SELECT status, source, detail, provider_id, raw FROM execution_details WHERE job_id = $1 AND source = 'Webhook' ORDER BY seq`, [job.job_id]),
  });
  return { repo, read, mine, sibling, foreign, gone, env, elsewhere };
}

describe('SqlReceiptRepository', () => {
  it('finds a live integration by id with its credentials decrypted; deleted, unknown or malformed ids are null', async () => {
    const { repo, mine, gone, env } = await setup();
    expect(await repo.findIntegration(mine)).toEqual({ id: mine, environmentId: env, providerId: 'sendgrid', credentials: { apiKey: 'SG.k', signingSecret: 'verification-key' } });
    expect(await repo.findIntegration(gone)).toBeNull();
    expect(await repo.findIntegration('0190a000-0000-7000-8000-000000000000')).toBeNull();
    expect(await repo.findIntegration("x' OR 1=1 --")).toBeNull();
  });

  it('applies a receipt once: status, one Webhook detail; the same receipt again is a duplicate', async () => {
    const { repo, read, mine } = await setup();
    const integration = (await repo.findIntegration(mine))!;
    expect(await repo.apply(integration, [change()])).toEqual(['applied']);
    expect(await repo.apply(integration, [change()])).toEqual(['duplicate']);
    expect(await read()).toEqual({ status: 'delivered', details: [{ status: 'Success', source: 'Webhook', detail: 'SendGrid: delivered', provider_id: 'sendgrid', raw: '{"event":"delivered"}' }] });
    expect(await repo.apply(integration, [change({ receiptId: 'ev-2', event: 'bounced', detail: 'bounce' }), change({ receiptId: 'ev-3', event: 'delivered' })])).toEqual(['applied', 'applied']);
    expect((await read()).status).toBe('bounced');
  });

  it("touches only its own integration's messages: a sibling or another environment's integration finds none", async () => {
    const { repo, read, sibling, foreign } = await setup();
    for (const id of [sibling, foreign]) expect(await repo.apply((await repo.findIntegration(id))!, [change()])).toEqual(['unmatched']);
    expect(await read()).toEqual({ status: 'sent', details: [] });
  });

  it('finds the message through the partial index, in the generic plan too, which holds no message without a provider id', async () => {
    const { mine, env } = await setup();
    const client = await database.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE receipt_lookup(uuid, text, uuid) AS ${MESSAGE_BY_PROVIDER_ID}`);
      const plan = (await client.query(`EXPLAIN EXECUTE receipt_lookup('${mine}', 'p-1', '${env}')`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('messages_integration_id_provider_message_id_idx');
      const [{ predicate }] = (await client.query(`SELECT pg_get_expr(indpred, indrelid) AS predicate FROM pg_index WHERE indexrelid = 'messages_integration_id_provider_message_id_idx'::regclass`)).rows;
      expect(predicate).toBe('(provider_message_id IS NOT NULL)');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
