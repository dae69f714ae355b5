import { eventRepositoryContract } from '@herald/domain/testing/event-repository-contract';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTopicRepository } from './prisma-topic-repository';
import { PrismaWorkflowRepository } from './prisma-workflow-repository';
import { SqlActivityRepository } from './sql-activity-repository';
import { SqlEventRepository } from './sql-event-repository';
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

eventRepositoryContract('PostgreSQL', async () => {
  const { prisma, pool } = database.db;
  return {
    events: new SqlEventRepository(pool, queue, testChannelCipher),
    workflows: new PrismaWorkflowRepository(prisma),
    subscribers: new PrismaSubscriberRepository(prisma, pool, testChannelCipher),
    topics: new PrismaTopicRepository(prisma, pool),
    activity: new SqlActivityRepository(pool),
    environments: await contractEnvironments(pool),
  };
});
