import type { TriggerAcceptance } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { startPgBoss, stopPgBoss, type PgBoss } from '../queue/pg-boss';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { SqlEventRepository } from './sql-event-repository';
import { TriggerBatcher } from './trigger-batcher';

const database = useTestDatabase();
let boss: PgBoss;
let queue: PgBossDeliveryQueue;
let acceptance: (transactionId: string) => TriggerAcceptance;

beforeAll(async () => {
  const { pool, prisma } = database.db;
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  const { environments } = await new PrismaTenancyRepository(prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
  const env = environments[0].id;
  await pool.query(
    `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'hello', 'hello') RETURNING id)
     INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values) SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"hi"}' FROM w`,
    [env],
  );
  const workflow = (await new SqlEventRepository(pool, queue).findWorkflow(env, 'hello'))!;
  acceptance = (transactionId) => ({
    environmentId: env,
    workflow,
    transactionId,
    payload: {},
    overrides: {},
    to: 'ada',
    actor: null,
    tenant: null,
    contextKeys: [],
    recipients: { subscriberIds: ['ada'], upserts: [], topics: [] },
    upserts: [],
  });
});
afterAll(async () => {
  if (boss) await stopPgBoss(boss, 1_000);
});

/** A pool whose first multi-trigger transaction commits but loses the COMMIT's reply. */
function poolLosingOneCommitReply(pool: Pool): Pool {
  let lost = false;
  const wrapped = Object.create(pool) as Pool;
  wrapped.connect = (async () => {
    const client = await pool.connect();
    let batchOfMany = false;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = (async (...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: string[] };
      if (config?.name === 'herald-accept-triggers' && JSON.parse(config.values![0]).length > 1) batchOfMany = true;
      const result = await query(...args);
      if (args[0] === 'COMMIT' && batchOfMany && !lost) {
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return result;
    }) as PoolClient['query'];
    proxy.release = (...args: Parameters<PoolClient['release']>) => client.release(...args);
    return proxy;
  }) as Pool['connect'];
  return wrapped;
}

describe('TriggerBatcher', () => {
  it('answers accepted, not duplicate, for triggers whose batch committed though the reply was lost', async () => {
    const batcher = new TriggerBatcher(poolLosingOneCommitReply(database.db.pool), queue);
    // More triggers at once than transactions in flight, so later ones are accepted in batches.
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => batcher.accept(acceptance(`lost-reply-${i}`))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    const { rows } = await database.db.pool.query<{ n: number; notifications: number }>(
      "SELECT count(*)::int AS n, (SELECT count(*)::int FROM notifications WHERE transaction_id LIKE 'lost-reply-%') AS notifications FROM events WHERE transaction_id LIKE 'lost-reply-%'",
    );
    expect(rows[0]).toEqual({ n: 12, notifications: 12 });
    expect(outcomes.map((o) => (o.accepted ? o.notifications : -1))).toEqual(Array(12).fill(1));
    // A real duplicate is still refused.
    expect(await batcher.accept(acceptance('lost-reply-0'))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
  });
});
