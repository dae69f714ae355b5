import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { startPgBoss, stopPgBoss, type PgBoss } from './pg-boss';
import { PgBossScheduler } from './pg-boss-scheduler';

const database = useTestDatabase();
const log = pino({ level: 'silent' });
const started: PgBoss[] = [];
afterAll(() => Promise.all(started.map((boss) => stopPgBoss(boss, 1_000))));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function process_() {
  // A 1-second cron pass instead of 30, so a due tick is sent within the test's patience.
  const boss = await startPgBoss(database.url, log, { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 });
  started.push(boss);
  return new PgBossScheduler(boss, log);
}

describe('PgBossScheduler', () => {
  // "This minute of every hour": exactly one tick falls inside the tests. A tick stays due for 60
  // seconds after it passes; start early enough in the minute to leave the cron pass most of them.
  let cron: string;
  beforeAll(async () => {
    if (new Date().getUTCSeconds() > 30) await sleep((61 - new Date().getUTCSeconds()) * 1000);
    cron = `${new Date().getUTCMinutes()} * * * *`;
  });

  it('runs a task once per tick across all processes that schedule it', async () => {
    const runs: string[] = [];
    const [a, b, c] = await Promise.all([process_(), process_(), process_()]);
    await a.every('test-tick', cron, async () => void runs.push('a'));
    await b.every('test-tick', cron, async () => void runs.push('b'));
    await c.every('test-tick', cron, async () => void runs.push('c'));

    for (let waited = 0; runs.length === 0 && waited < 15_000; waited += 100) await sleep(100);
    expect(runs).toHaveLength(1);
    await sleep(4_000); // several more cron passes in every process
    expect(runs).toHaveLength(1);
  });

  it('does not retry a failed task within its tick', async () => {
    const scheduler = await process_();
    let calls = 0;
    await scheduler.every('test-failing', cron, async () => {
      calls++;
      throw new Error('boom');
    });
    for (let waited = 0; calls === 0 && waited < 15_000; waited += 100) await sleep(100);
    await sleep(3_000);
    expect(calls).toBe(1);
  });

  it('runs a task filed now by another process at once, and keeps one waiting run however often it is asked', async () => {
    const runs: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Midnight on 1 January: no tick of its own falls inside the test.
    await (await process_()).every('test-now', '0 0 1 1 *', async () => {
      runs.push(Date.now());
      await held;
    });
    const operator = await process_();
    expect(await operator.runNow('test-now')).toBe(true);
    for (let waited = 0; runs.length === 0 && waited < 5_000; waited += 50) await sleep(50);
    expect(runs).toHaveLength(1);
    // One running: the next is queued, and a third finds it waiting.
    expect(await operator.runNow('test-now')).toBe(true);
    expect(await operator.runNow('test-now')).toBe(false);
    release();
    for (let waited = 0; runs.length < 2 && waited < 5_000; waited += 50) await sleep(50);
    await sleep(1_000);
    expect(runs).toHaveLength(2);
  });

  it('has its queue wake the worker by NOTIFY, also a queue an earlier release created without it', async () => {
    const boss = await startPgBoss(database.url, log);
    started.push(boss);
    await boss.createQueue('test-older-queue', { policy: 'stately' });
    expect((await boss.getQueue('test-older-queue'))?.notify).toBe(false);
    await new PgBossScheduler(boss, log).every('test-older-queue', cron, async () => undefined);
    expect((await boss.getQueue('test-older-queue'))?.notify).toBe(true);
  });
});
