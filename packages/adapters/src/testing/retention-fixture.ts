import { randomUUID } from 'node:crypto';
import type { HistoryLeft, HistorySeed } from '@herald/domain/testing/in-memory-retention-repository';
import type { RetentionFixture } from '@herald/domain/testing/retention-repository-contract';
import type { Pool } from 'pg';
import { SqlRetentionRepository } from '../persistence/sql-retention-repository';
import { contractEnvironments } from './contract-environments';
import { historyTarget } from './delivery-history-rows';
import { insertWebhookHistory, settleWebhookEvent } from './webhook-history-rows';

/**
 * The retention contract's fixture on PostgreSQL: seeded rows are written as the service writes
 * them (an inline in-app message keyed by inline_job_id, a job with a detail and an email message, a
 * digest window led by a job), in two environments of their own.
 */
export async function sqlRetentionFixture(pool: Pool): Promise<RetentionFixture> {
  const environments = await contractEnvironments(pool);
  const targets = await Promise.all(environments.map((e) => historyTarget(pool, e, `retention-${randomUUID()}`, 1)));
  const target = (environmentId: string) => targets.find((t) => t.environmentId === environmentId)!;
  const eventKeys = new Map<string, string>();
  const windowKeys = new Map<string, string>();
  const inlineJobs = new Map<string, string>();
  const eventOf = new Map<string, string>();

  async function seedOne(row: HistorySeed): Promise<string> {
    const id = row.id ?? randomUUID();
    const { environmentId, workflowId, inAppStepId, emailStepId, subscriberIds: [subscriberId] } = target(row.environmentId);
    const eventKey = row.event ?? `own-${id}`;
    const eventId = eventKeys.get(eventKey) ?? randomUUID();
    eventKeys.set(eventKey, eventId);
    eventOf.set(id, eventId);
    const inlineJobId = inlineJobs.get(id) ?? randomUUID();
    inlineJobs.set(id, inlineJobId);
    await pool.query(
      `INSERT INTO events (id, environment_id, workflow_id, transaction_id, "to", status, created_at) VALUES ($1, $2, $3, $6, '"x"', $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [eventId, environmentId, workflowId, row.eventStatus ?? 'fanned_out', row.createdAt, `seed-${eventId}`],
    );
    await pool.query(
      `INSERT INTO notifications (id, environment_id, event_id, workflow_id, subscriber_id, transaction_id, inline_job_id, inline_workflow_step_id,
         inline_step_id, inline_step_type, inline_position, inline_status, created_at)
       VALUES ($1, $2, $3, $4, $5, $9, $6, $7, 'bell', 'in_app', 0, 'completed', $8)`,
      [id, environmentId, eventId, workflowId, subscriberId, inlineJobId, inAppStepId, row.createdAt, `seed-${eventId}`],
    );
    await pool.query(
      `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, body, is_snoozed, snoozed_until, created_at)
       VALUES ($1, $2, $3, $4, 'seed', 'in_app', 'hi', $5::timestamptz IS NOT NULL, $5, $6)`,
      [environmentId, id, inlineJobId, subscriberId, row.snoozedUntil ?? null, row.createdAt],
    );
    if (!row.jobStatus && !row.digest) return id;
    const jobId = randomUUID();
    let windowId: string | null = null;
    if (row.digest) {
      windowId = windowKeys.get(row.digest.window) ?? randomUUID();
      windowKeys.set(row.digest.window, windowId);
      if (row.digest.leads) {
        await pool.query(
          `INSERT INTO digest_windows (id, environment_id, workflow_step_id, subscriber_id, digest_key, leader_job_id, leader_notification_id, status, closes_at, created_at)
           VALUES ($1, $2, $3, $4, $9, $5, $6, $7, $8, $8)`,
          [windowId, environmentId, emailStepId, subscriberId, jobId, id, row.digest.status, row.createdAt, row.digest.window],
        );
      }
    }
    await pool.query(
      `INSERT INTO jobs (id, environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status, digest_window_id, created_at)
       VALUES ($1, $2, $3, $4, $5, 'mail', 'email', 1, $6, $7, $8)`,
      [jobId, environmentId, id, subscriberId, emailStepId, row.jobStatus ?? 'merged', windowId, row.createdAt],
    );
    await pool.query(`INSERT INTO execution_details (environment_id, job_id, notification_id, status, detail) VALUES ($1, $2, $3, 'Success', 'sent')`, [environmentId, jobId, id]);
    await pool.query(
      `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, body, created_at) VALUES ($1, $2, $3, $4, 'seed', 'email', 'hi', $5)`,
      [environmentId, id, jobId, subscriberId, row.createdAt],
    );
    return id;
  }

  return {
    repo: new SqlRetentionRepository(pool),
    environments,
    async seed(rows) {
      const ids: string[] = [];
      for (const row of rows) ids.push(await seedOne(row));
      return ids;
    },
    seedWebhookEvents: (rows) => insertWebhookHistory(pool, rows),
    settleWebhookEvent: (id) => settleWebhookEvent(pool, id),
    async settle(notificationId) {
      await pool.query(`UPDATE digest_windows SET status = 'closed' WHERE id IN (SELECT digest_window_id FROM jobs WHERE notification_id = $1)`, [notificationId]);
      await pool.query(`UPDATE jobs SET status = 'completed' WHERE notification_id = $1 AND status IN ('pending', 'queued', 'running', 'delayed')`, [notificationId]);
      await pool.query(`UPDATE messages SET is_snoozed = false, snoozed_until = NULL WHERE job_id = $1`, [inlineJobs.get(notificationId)]);
      await pool.query(`UPDATE events SET status = 'fanned_out' WHERE id = $1 AND status = 'fanning_out'`, [eventOf.get(notificationId)]);
    },
    async left(environmentId): Promise<HistoryLeft> {
      const { rows: [row] } = await pool.query<Record<keyof HistoryLeft, number>>(
        `SELECT (SELECT count(*)::int FROM notifications WHERE environment_id = $1) AS "notifications",
                (SELECT count(*)::int FROM jobs WHERE environment_id = $1) AS "jobs",
                (SELECT count(*)::int FROM execution_details WHERE environment_id = $1) AS "executionDetails",
                (SELECT count(*)::int FROM messages WHERE environment_id = $1) AS "messages",
                (SELECT count(*)::int FROM digest_windows WHERE environment_id = $1) AS "digestWindows",
                (SELECT count(*)::int FROM events WHERE environment_id = $1) AS "events",
                (SELECT count(*)::int FROM webhook_events WHERE environment_id = $1) AS "webhookEvents",
                (SELECT count(*)::int FROM webhook_deliveries WHERE environment_id = $1) AS "webhookDeliveries",
                (SELECT count(*)::int FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id WHERE e.environment_id = $1) AS "webhookAttempts"`,
        [environmentId],
      );
      return row;
    },
    async has(notificationId) {
      return (await pool.query('SELECT 1 FROM notifications WHERE id = $1', [notificationId])).rowCount === 1;
    },
  };
}
