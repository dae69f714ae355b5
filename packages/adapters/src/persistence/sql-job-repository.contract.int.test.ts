import type { NotificationSeed } from '@herald/domain/testing/job-repository-contract';
import { jobRepositoryContract } from '@herald/domain/testing/job-repository-contract';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaPreferenceRepository } from './prisma-preference-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaWorkflowRepository } from './prisma-workflow-repository';
import { SqlJobRepository } from './sql-job-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();
let boss: PgBoss;
let queue: PgBossDeliveryQueue;
beforeAll(async () => {
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

/** The event, the notification and one job per workflow step (the first queued), as a trigger writes them. */
async function notify(environmentId: string, seed: NotificationSeed): Promise<string> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `WITH s AS (SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2),
     e AS (
       INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload, overrides, context_keys)
       VALUES ($1, $3, $4, '{}', $5, $6, $7) RETURNING id),
     n AS (
       INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, context_keys)
       SELECT $1, e.id, $3, s.id, $4, $7 FROM e, s RETURNING id, subscriber_id),
     j AS (
       INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
       SELECT $1, n.id, n.subscriber_id, ws.id, ws.step_id, ws.type, ws.position, CASE WHEN ws.position = 0 THEN 'queued' ELSE 'pending' END
       FROM n, workflow_steps ws WHERE ws.workflow_id = $3)
     SELECT id FROM n`,
    [environmentId, seed.subscriberId, seed.workflowId, seed.transactionId, JSON.stringify(seed.payload), JSON.stringify(seed.overrides ?? {}), seed.contextKeys ?? []],
  );
  return rows[0].id;
}

jobRepositoryContract('PostgreSQL', async () => {
  const { prisma, pool } = database.db;
  return {
    jobs: new SqlJobRepository(pool, queue, testChannelCipher),
    workflows: new PrismaWorkflowRepository(prisma),
    subscribers: new PrismaSubscriberRepository(prisma, pool, testChannelCipher),
    preferences: new PrismaPreferenceRepository(prisma, pool),
    notify,
    // As the inbox marks a message read (SqlInboxRepository.update): seen first, then read.
    readMessage: async (jobId: string) => {
      await pool.query('UPDATE messages SET is_seen = true, first_seen_at = COALESCE(first_seen_at, now()), is_read = true, read_at = now() WHERE job_id = $1', [jobId]);
    },
    environments: await contractEnvironments(pool),
  };
});
