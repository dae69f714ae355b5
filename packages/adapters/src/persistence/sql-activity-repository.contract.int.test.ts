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
       INSERT INTO events (environment_id, workflow_id, transaction_id, "to", payload, channels, topic_keys, context_keys, created_at)
       SELECT $1, w.id, $3, '{}', $4, $5, CASE WHEN $9::text IS NULL THEN '{}' ELSE ARRAY[$9::text] END, $6, $7 FROM w RETURNING id, workflow_id)
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
    ],
  );
  return rows.map((r) => r.id);
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
