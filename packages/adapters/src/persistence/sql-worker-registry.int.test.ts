import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessLiveness, WORKER_LOCK_CLASS } from '../database/process-liveness';
import { FANOUT_QUEUE, PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
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
const registries: SqlWorkerRegistry[] = [];

beforeAll(async () => {
  boss = await startPgBoss(database.url, pino({ level: 'silent' }));
  queue = new PgBossDeliveryQueue(boss);
  await queue.ensureQueues();
  await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
});
afterAll(async () => {
  for (const r of registries) await r.leave();
  if (boss) await stopPgBoss(boss, 1_000);
});

async function joined(): Promise<SqlWorkerRegistry> {
  const registry = new SqlWorkerRegistry(database.db.pool, queue, new ProcessLiveness(database.db.pool.options, randomUUID()));
  await registry.join();
  registries.push(registry);
  return registry;
}

/** A registered process that died: its row stays, nobody holds its lock. */
async function deadWorker(): Promise<string> {
  const id = randomUUID();
  await database.db.pool.query("INSERT INTO worker_processes (id, hostname, pid) VALUES ($1, 'gone', 1)", [id]);
  return id;
}

const queuedJob = (name: string, type: string) => insertQueuedJob(database.db.pool, name, type);

const job = async (jobId: string) =>
  (await database.db.pool.query<{ status: string; lease_owner: string | null }>('SELECT status, lease_owner FROM jobs WHERE id = $1', [jobId])).rows[0];

describe('SqlWorkerRegistry', () => {
  it('counts the other registered processes, alive or dead: none while this one is alone', async () => {
    const alone = await joined();
    expect(await alone.recoverDead()).toEqual({ workers: 0, events: 0, notifications: 0, others: 0 });
    const other = await joined();
    expect((await alone.recoverDead()).others).toBe(1);
    expect((await other.recoverDead()).others).toBe(1);
    const dead = await deadWorker();
    const taken = await alone.recoverDead();
    expect(taken).toMatchObject({ workers: 1, others: 1 });
    expect((await database.db.pool.query('SELECT 1 FROM worker_processes WHERE id = $1', [dead])).rows.length).toBe(0);
    await alone.leave();
    expect((await other.recoverDead()).others).toBe(0);
    await other.leave();
  });

  it("takes a dead process's work over once: its leases end, its fan-outs and the due jobs are queued again", async () => {
    const [a, b] = [await joined(), await joined()];
    const dead = await deadWorker();
    const mine = await queuedJob('live-lease', 'email');
    const theirs = await queuedJob('dead-lease', 'email');
    const inbox = await queuedJob('due-inbox', 'in_app');
    await new SqlJobRepository(database.db.pool, queue, testChannelCipher, a.workerId).claim([mine.notification_id]);
    await new SqlJobRepository(database.db.pool, queue, testChannelCipher, dead).claim([theirs.notification_id]);
    await database.db.pool.query("UPDATE events SET status = 'fanning_out', fanout_cursor = '{}', fanout_owner = $2 WHERE id = $1", [inbox.event_id, dead]);

    // Both live processes notice at once; one of them takes the work over.
    const results = await Promise.all([a.recoverDead(), b.recoverDead()]);
    expect(results.map((r) => r.workers).sort()).toEqual([0, 1]);
    const taken = results.find((r) => r.workers === 1)!;
    expect(taken.events).toBe(1);
    expect(taken.notifications).toBeGreaterThanOrEqual(2);

    expect(await job(theirs.job_id)).toEqual({ status: 'queued', lease_owner: null });
    expect(await job(mine.job_id)).toEqual({ status: 'running', lease_owner: a.workerId });
    const { rows: workers } = await database.db.pool.query<{ id: string }>('SELECT id FROM worker_processes');
    expect(workers.map((w) => w.id).sort()).toEqual([a.workerId, b.workerId].sort());
    const { rows: fanouts } = await database.db.pool.query(`SELECT 1 FROM pgboss.job WHERE name = $1 AND data->'eventIds' ? $2`, [FANOUT_QUEUE, inbox.event_id]);
    expect(fanouts.length).toBe(1);
    expect((await database.db.pool.query('SELECT fanout_owner FROM events WHERE id = $1', [inbox.event_id])).rows[0].fanout_owner).toBeNull();

    // Its job is due again and leased by the next claim; nothing more to take over.
    const [reclaimed] = await new SqlJobRepository(database.db.pool, queue, testChannelCipher, b.workerId).claim([theirs.notification_id]);
    expect(reclaimed.attempts).toBe(2);
    expect(await a.recoverDead()).toMatchObject({ workers: 0, events: 0, notifications: 0 });
  });

  it('sees a process alive while its liveness connection holds the lock, and registers it again when that connection drops', async () => {
    const watcher = await joined();
    const lost: Error[] = [];
    const liveness = new ProcessLiveness(database.db.pool.options, randomUUID(), (e) => lost.push(e));
    const other = new SqlWorkerRegistry(database.db.pool, queue, liveness);
    await other.join();
    registries.push(other);
    expect((await watcher.recoverDead()).workers).toBe(0);

    const holder = `SELECT l.pid FROM pg_locks l JOIN worker_processes w ON l.objid = w.lock_key::oid
                    WHERE l.locktype = 'advisory' AND l.classid = ${WORKER_LOCK_CLASS}::oid AND l.objsubid = 2 AND w.id = $1`;
    const [{ pid }] = (await database.db.pool.query<{ pid: number }>(holder, [other.workerId])).rows;
    await database.db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const deadline = Date.now() + 10_000;
    let again: number | undefined;
    while (Date.now() < deadline && !again) {
      await new Promise((r) => setTimeout(r, 100));
      again = (await database.db.pool.query<{ pid: number }>(holder, [other.workerId])).rows[0]?.pid;
    }
    expect(lost.length).toBeGreaterThan(0);
    expect(again).toBeDefined();
    expect(again).not.toBe(pid);
  });

  it('forgets a process that left cleanly', async () => {
    const leaving = await joined();
    await leaving.leave();
    const { rows } = await database.db.pool.query('SELECT 1 FROM worker_processes WHERE id = $1', [leaving.workerId]);
    expect(rows.length).toBe(0);
  });
});
