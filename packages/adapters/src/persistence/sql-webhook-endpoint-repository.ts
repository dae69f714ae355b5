import type { CredentialCipher, WebhookEndpoint, WebhookEndpointDraft, WebhookEndpointPatch, WebhookEndpointRepository, WebhookEventType, WebhookSecrets } from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid } from './sql-params';
import { inTransaction } from './transaction';

/** Every column but the secrets, which never leave this file but encrypted (or, decrypted, to the dispatcher). */
const COLUMNS = 'id, environment_id, url, description, event_types, enabled, disabled_reason, failing_since, previous_secret_until, created_at, updated_at';

interface EndpointRow {
  id: string;
  environment_id: string;
  url: string;
  description: string | null;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function toWebhookEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    environmentId: r.environment_id,
    url: r.url,
    description: r.description,
    eventTypes: (r.event_types ?? []) as WebhookEventType[],
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    previousSecretUntil: r.previous_secret_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Webhook endpoints in PostgreSQL; signing secrets encrypted with the installation's key. */
export class SqlWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: CredentialCipher,
  ) {}

  async insert(environmentId: string, draft: WebhookEndpointDraft): Promise<WebhookEndpoint> {
    const secrets: WebhookSecrets = { current: draft.secret };
    const { rows } = await this.pool.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (environment_id, url, description, event_types, enabled, secrets) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [environmentId, draft.url, draft.description, draft.eventTypes, draft.enabled, this.cipher.encrypt({ ...secrets })],
    );
    return toWebhookEndpoint(rows[0]);
  }

  async find(environmentId: string, id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE environment_id = $1 AND id = $2`, [environmentId, id]);
    return rows[0] ? toWebhookEndpoint(rows[0]) : null;
  }

  async list(environmentId: string): Promise<WebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE environment_id = $1 ORDER BY id`, [environmentId]);
    return rows.map(toWebhookEndpoint);
  }

  async update(environmentId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return null;
    // Enabling again is a person's decision: it forgets why Herald disabled the endpoint.
    const { rows } = await this.pool.query<EndpointRow>(
      `UPDATE webhook_endpoints SET url = COALESCE($3, url),
         description = CASE WHEN $4::boolean THEN $5 ELSE description END,
         event_types = COALESCE($6::text[], event_types), enabled = COALESCE($7, enabled),
         disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
         failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END, updated_at = now()
       WHERE environment_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [environmentId, id, patch.url ?? null, patch.description !== undefined, patch.description ?? null, patch.eventTypes ?? null, patch.enabled ?? null],
    );
    if (rows[0] && patch.enabled === false) await this.captureOffIfUnused();
    return rows[0] ? toWebhookEndpoint(rows[0]) : null;
  }

  async remove(environmentId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.pool.query('DELETE FROM webhook_endpoints WHERE environment_id = $1 AND id = $2', [environmentId, id]);
    if (rowCount) await this.captureOffIfUnused();
    return (rowCount ?? 0) > 0;
  }

  /**
   * Once no endpoint is enabled anywhere, the tables' webhook triggers are switched off (creating or
   * enabling one switches them on: migration webhook_capture_switch). After the change committed, in a
   * statement of its own: a failure here leaves them on, which only costs what they cost.
   */
  private async captureOffIfUnused(): Promise<void> {
    await this.pool.query('SELECT herald_webhook_capture_sync(true)').catch(() => undefined);
  }

  rotateSecret(environmentId: string, id: string, secret: string, previousUntil: Date): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return inTransaction(this.pool, async (client) => {
      const found = await client.query<{ secrets: string }>('SELECT secrets FROM webhook_endpoints WHERE environment_id = $1 AND id = $2 FOR UPDATE', [environmentId, id]);
      if (!found.rows[0]) return null;
      const { current } = this.cipher.decrypt(found.rows[0].secrets) as unknown as WebhookSecrets;
      const secrets: WebhookSecrets = { current: secret, previous: current, previousUntil: previousUntil.toISOString() };
      const { rows } = await client.query<EndpointRow>(
        `UPDATE webhook_endpoints SET secrets = $3, previous_secret_until = $4, updated_at = now() WHERE id = $2 AND environment_id = $1 RETURNING ${COLUMNS}`,
        [environmentId, id, this.cipher.encrypt({ ...secrets }), previousUntil],
      );
      return toWebhookEndpoint(rows[0]);
    });
  }
}
