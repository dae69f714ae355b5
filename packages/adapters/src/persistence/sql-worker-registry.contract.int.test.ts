import { randomUUID } from 'node:crypto';
import { workerRegistryContract, type WorkerProcess } from '@herald/domain/testing/worker-registry-contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ProcessLiveness } from '../database/process-liveness';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { insertQueuedJob } from '../testing/job-rows';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlJobRepository } from './sql-job-repository';
import { SqlWorkerRegistry } from './sql-worker-registry';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();
let boss: PgBoss;
let queue: PgBossDeliveryQueue;
const joined: SqlWorkerRegistry[] = [];

beforeAll(async () => {
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  await new PrismaTenancyRepository(database.db.prisma).bootstrap({ organizationName: 'Org', environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }] });
});
afterEach(async () => {
  await Promise.all(joined.splice(0).map((r) => r.leave()));
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

workerRegistryContract('PostgreSQL', async () => ({
  async process(): Promise<WorkerProcess> {
    const registry = new SqlWorkerRegistry(database.db.pool, queue, new ProcessLiveness(database.db.pool.options, randomUUID()));
    await registry.join();
    joined.push(registry);
    return { registry, jobs: new SqlJobRepository(database.db.pool, queue, testChannelCipher, registry.workerId) };
  },
  // Gone without leaving: still registered, and nobody holds its liveness lock.
  async crashed({ registry }) {
    await registry.leave();
    await database.db.pool.query("INSERT INTO worker_processes (id, hostname, pid) VALUES ($1, 'crashed', 1)", [registry.workerId]);
  },
  leasedWork: async () => (await insertQueuedJob(database.db.pool, `leased-${randomUUID()}`, 'email')).notification_id,
}));
