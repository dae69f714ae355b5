import type { ActivitySeed } from '@herald/domain/testing/activity-repository-contract';
import { activityRepositoryContract } from '@herald/domain/testing/activity-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTopicRepository } from './prisma-topic-repository';
import { PrismaWorkflowRepository } from './prisma-workflow-repository';
import { SqlActivityRepository } from './sql-activity-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

/** The event and its notifications, as a trigger (or a fan-out, with a subscription) writes them. */
async function trigger(environmentId: string, seed: ActivitySeed): Promise<string[]> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `WITH w AS (SELECT id FROM workflows WHERE environment_id = $1 AND workflow_id = $2),
     sub AS (SELECT ts.id, ts.topic_id FROM topic_subscriptions ts WHERE ts.environment_id = $1 AND ts.identifier = $10),
     e AS (
       INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload, channels, topic_keys, context_keys, created_at,
         status, fanout_cursor, fanned_out_at)
       SELECT $1, w.id, $3, '{}', $4, $5, COALESCE($12::text[], CASE WHEN $9::text IS NULL THEN '{}' ELSE ARRAY[$9::text] END), $6, $7,
         CASE WHEN $13::jsonb IS NULL THEN 'fanned_out' ELSE 'fanning_out' END, $13::jsonb, CASE WHEN $13::jsonb IS NULL THEN $7::timestamptz END
       FROM w RETURNING id, workflow_id)
     INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, severity, context_keys,
       topic_id, topic_key, subscription_id, created_at, updated_at)
     SELECT $1, e.id, e.workflow_id, s.id, $3, $5, $8, $6, (SELECT topic_id FROM sub), $9, (SELECT id FROM sub), $7, $7
     FROM e, unnest($11::text[]) WITH ORDINALITY AS r(subscriber_id, n) JOIN subscribers s ON s.environment_id = $1 AND s.subscriber_id = r.subscriber_id
     ORDER BY r.n
     RETURNING id`,
    [
      environmentId,
      seed.workflow,
      seed.transactionId,
      JSON.stringify(seed.payload ?? {}),
      seed.channels ?? [],
      seed.contextKeys ?? [],
      seed.createdAt,
      seed.severity ?? 'none',
      seed.subscription?.topicKey ?? null,
      seed.subscription?.identifier ?? null,
      seed.recipients,
      seed.fanout?.topicKeys ?? null,
      seed.fanout?.lanes ? JSON.stringify({ topics: seed.fanout.topicKeys.map((topicKey) => ({ topicKey, exclude: [] })), lanes: seed.fanout.lanes }) : null,
    ],
  );
  const ids = rows.map((r) => r.id);
  if (seed.stepStatuses?.length) await steps(ids, seed.stepStatuses);
  return ids;
}

/** The first status as a step run inline (kept on the notification), the others as its jobs. */
async function steps(notificationIds: string[], [inline, ...queued]: string[]): Promise<void> {
  await database.db.pool.query(
    `UPDATE notifications SET inline_job_id = gen_random_uuid(), inline_workflow_step_id = gen_random_uuid(), inline_step_id = 'step-0',
       inline_step_type = 'in_app', inline_position = 0, inline_status = $2 WHERE id = ANY($1::uuid[])`,
    [notificationIds, inline],
  );
  await database.db.pool.query(
    `INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
     SELECT n.environment_id, n.id, n.subscriber_id, gen_random_uuid(), 'step-' || q.position, 'email', q.position, q.status
     FROM notifications n, unnest($2::text[]) WITH ORDINALITY AS q(status, position) WHERE n.id = ANY($1::uuid[])`,
    [notificationIds, queued],
  );
}

activityRepositoryContract('PostgreSQL', async () => {
  const { prisma, pool } = database.db;
  return {
    repo: new SqlActivityRepository(pool),
    subscribers: new PrismaSubscriberRepository(prisma, pool, testChannelCipher),
    workflows: new PrismaWorkflowRepository(prisma),
    topics: new PrismaTopicRepository(prisma, pool),
    trigger,
    environments: await contractEnvironments(pool),
  };
});
