import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';

// bigint counts from raw SQL come back as strings by default; numeric columns we use fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Database {
  /** Raw pool for set-based SQL on hot paths. */
  pool: pg.Pool;
  /**
   * Connections whose commits do not wait for the WAL flush (synchronous_commit off), for work that
   * is re-done after a crash anyway: step results. A trigger's acceptance never uses it.
   */
  workerPool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/** One pool shared by Prisma (through its pg adapter) and raw SQL. */
export function connectDatabase(url: string, maxConnections = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const workerPool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, options: '-c synchronous_commit=off' });
  workerPool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    workerPool,
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
      await workerPool.end().catch(() => undefined);
    },
  };
}

export type { PrismaClient };
