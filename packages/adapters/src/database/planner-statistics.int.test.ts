import { beforeAll, describe, expect, it } from 'vitest';
import { PrismaTenancyRepository } from '../persistence/prisma-tenancy-repository';
import { useTestDatabase } from '../testing/use-test-database';
import { refreshPlannerStatistics } from './planner-statistics';

const database = useTestDatabase();

describe('refreshPlannerStatistics', () => {
  // Autovacuum's own ANALYZE of a grown table, if it came between a test's inserts and its rounds,
  // would leave nothing for the refresh to find.
  beforeAll(() => database.db.pool.query('ALTER TABLE subscribers SET (autovacuum_enabled = false)'));

  it('analyzes a hot table that grew from empty, then leaves it until it has quadrupled', async () => {
    const { pool, prisma } = database.db;
    await new PrismaTenancyRepository(prisma).bootstrap({ organizationName: 'Org', environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }] });
    const client = await pool.connect();
    try {
      await client.query(
        `INSERT INTO subscribers (environment_id, subscriber_id)
         SELECT (SELECT id FROM environments LIMIT 1), 'plan-' || g FROM generate_series(1, 1500) g`,
      );
      await client.query('SELECT pg_stat_force_next_flush()');
      await client.query('SELECT 1'); // the flush happens when this session goes idle
    } finally {
      client.release();
    }
    const reltuples = async () => (await pool.query<{ n: number }>("SELECT reltuples::int AS n FROM pg_class WHERE relname = 'subscribers'")).rows[0].n;
    let analyzed: string[] = [];
    for (let attempt = 0; attempt < 20 && !analyzed.includes('subscribers'); attempt++) {
      analyzed = await refreshPlannerStatistics(pool);
      if (!analyzed.includes('subscribers')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(analyzed).toContain('subscribers');
    expect(await reltuples()).toBe(1500);
    expect(await refreshPlannerStatistics(pool)).not.toContain('subscribers');
  });

  it('reads once and takes no connection of its own in a round where nothing grew', async () => {
    const { pool } = database.db;
    // Settle first: whatever earlier tests left grown is refreshed now.
    await refreshPlannerStatistics(pool);
    const calls = { query: 0, connect: 0 };
    const counted = Object.create(pool) as typeof pool;
    counted.query = ((...args: Parameters<typeof pool.query>) => (calls.query++, pool.query(...args))) as typeof pool.query;
    counted.connect = ((...args: Parameters<typeof pool.connect>) => (calls.connect++, pool.connect(...args))) as typeof pool.connect;
    expect(await refreshPlannerStatistics(counted)).toEqual([]);
    expect(calls).toEqual({ query: 1, connect: 0 });
  });

  it('does not return a connection to the pool with a setting it could not reset', async () => {
    const { pool } = database.db;
    // The session that inserted must flush its statistics: another pooled session's flush would not
    // carry them, and a session that flushed less than a second ago defers its next flush by up to 10 s.
    const client = await pool.connect();
    try {
      await client.query("INSERT INTO subscribers (environment_id, subscriber_id) SELECT (SELECT id FROM environments LIMIT 1), 'reset-' || g FROM generate_series(1, 20000) g");
      await client.query('SELECT pg_stat_force_next_flush()');
      await client.query('SELECT 1'); // the flush happens when this session goes idle
    } finally {
      client.release();
    }
    const released: unknown[] = [];
    const failing = Object.create(pool) as typeof pool;
    failing.query = pool.query.bind(pool) as typeof pool.query;
    failing.connect = (async () => {
      const client = await pool.connect();
      const proxy = Object.create(client) as typeof client;
      proxy.query = ((...args: Parameters<typeof client.query>) =>
        args[0] === 'RESET lock_timeout' ? Promise.reject(new Error('connection lost')) : client.query(...args)) as typeof client.query;
      proxy.release = (error?: Error | boolean) => (released.push(error), client.release(error));
      return proxy;
    }) as unknown as typeof pool.connect;
    let analyzed: string[] = [];
    for (let attempt = 0; attempt < 20 && !analyzed.includes('subscribers'); attempt++) {
      analyzed = await refreshPlannerStatistics(failing);
      if (!analyzed.includes('subscribers')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(analyzed).toContain('subscribers');
    // The round that analyzed destroyed its connection (a truthy release); earlier rounds returned theirs.
    expect(released.at(-1)).toBe(true);
  });
});
