import type { CredentialCipher, ReceiptChange, ReceiptIntegration, ReceiptOutcome, ReceiptRepository } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import { isUuid } from './sql-params';
import { inTransaction } from './transaction';

interface MessageRow {
  id: string;
  job_id: string;
  notification_id: string;
  status: string;
}

/**
 * Receipts in PostgreSQL. Each is its own transaction: its message row locked, the receipt id
 * claimed (the primary key makes a second delivery a no-op), the status changed (the messages
 * trigger writes the outbound `message.delivered`/`message.bounced` event in the same
 * transaction) and an execution detail written.
 */
/**
 * The message a receipt is about, by the id its provider answered the send with. Served by the
 * partial index messages (integration_id, provider_message_id) WHERE provider_message_id IS NOT NULL:
 * the equality implies it, so inbox messages, which have none, need no entry there.
 */
export const MESSAGE_BY_PROVIDER_ID = `SELECT id, job_id, notification_id, status FROM messages
WHERE integration_id = $1 AND provider_message_id = $2 AND environment_id = $3
ORDER BY created_at DESC LIMIT 1 FOR UPDATE`;

export class SqlReceiptRepository implements ReceiptRepository {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: CredentialCipher,
  ) {}

  async findIntegration(integrationId: string): Promise<ReceiptIntegration | null> {
    if (!isUuid(integrationId)) return null;
    const { rows } = await this.pool.query<{ id: string; environment_id: string; provider_id: string; credentials: string | null }>(
      'SELECT id, environment_id, provider_id, credentials FROM integrations WHERE id = $1 AND NOT deleted',
      [integrationId],
    );
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, environmentId: row.environment_id, providerId: row.provider_id, credentials: row.credentials ? this.cipher.decrypt(row.credentials) : {} };
  }

  async apply(integration: ReceiptIntegration, changes: ReceiptChange[]): Promise<ReceiptOutcome[]> {
    const outcomes: ReceiptOutcome[] = [];
    for (const change of changes) outcomes.push(await inTransaction(this.pool, (client) => this.applyOne(client, integration, change)));
    return outcomes;
  }

  private async applyOne(client: PoolClient, integration: ReceiptIntegration, { receipt, status, detailStatus }: ReceiptChange): Promise<ReceiptOutcome> {
    const { rows } = await client.query<MessageRow>(MESSAGE_BY_PROVIDER_ID, [integration.id, receipt.providerMessageId, integration.environmentId]);
    const message = rows[0];
    if (!message) return 'unmatched';
    const claimed = await client.query(
      `INSERT INTO provider_receipts (integration_id, receipt_id, message_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [integration.id, receipt.receiptId, message.id],
    );
    if (claimed.rowCount === 0) return 'duplicate';
    const next = status(message.status);
    if (next) {
      await client.query('UPDATE messages SET status = $2, updated_at = now() WHERE id = $1', [message.id, next]);
    }
    await client.query(
      `INSERT INTO execution_details (environment_id, job_id, notification_id, status, source, detail, provider_id, raw)
       VALUES ($1, $2, $3, $4, 'Webhook', $5, $6, $7)`,
      [integration.environmentId, message.job_id, message.notification_id, detailStatus, receipt.detail, integration.providerId, receipt.raw],
    );
    return 'applied';
  }
}
