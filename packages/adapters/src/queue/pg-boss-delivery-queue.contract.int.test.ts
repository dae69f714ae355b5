import { deliveryQueueContract } from '@herald/domain/testing/delivery-queue-contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { fanoutWork, PgBossDeliveryQueue, stepsWork } from './pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from './pg-boss';

const database = useTestDatabase();
const logger = pino({ level: 'silent' });
let producer: PgBoss;
const processes: Array<{ queue: PgBossDeliveryQueue; boss: PgBoss }> = [];

beforeAll(async () => {
  producer = await startPgBoss(database.url, logger);
  await new PgBossDeliveryQueue(producer).ensureQueues();
});
// Each process has a pg-boss of its own, as it would running apart.
afterEach(async () => {
  for (const { queue, boss } of processes.splice(0)) {
    await queue.stop();
    await stopPgBoss(boss, 1_000);
  }
});
afterAll(async () => {
  if (producer) await stopPgBoss(producer, 1_000);
});

deliveryQueueContract('pg-boss', async () => ({
  async processes(count) {
    const started: PgBossDeliveryQueue[] = [];
    for (let i = 0; i < count; i++) {
      const boss = await startPgBoss(database.url, logger);
      const queue = new PgBossDeliveryQueue(boss, logger);
      processes.push({ queue, boss });
      started.push(queue);
    }
    return started;
  },
  enqueue: (work) => new PgBossDeliveryQueue(producer).enqueue([...fanoutWork(work.fanout ?? []), ...stepsWork(work.steps ?? [])]),
}));
