import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Any constant shared by every Herald process: serialises concurrent start-ups. */
const MIGRATION_LOCK = 72_616_001;

async function migrationNames(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Migrations this build has that the database has not finished applying (readiness reports them). */
export async function pendingMigrations(pool: Pool, dir = MIGRATIONS_DIR): Promise<{ applied: number; pending: string[] }> {
  const names = await migrationNames(dir);
  const { rows } = await pool
    .query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
    .catch((error: { code?: string }) => (error.code === '42P01' ? { rows: [] } : Promise.reject(error)));
  const finished = new Set(rows.map((r) => r.migration_name));
  return { applied: names.filter((n) => finished.has(n)).length, pending: names.filter((n) => !finished.has(n)) };
}

/**
 * Applies pending migrations from Prisma's folder layout and records them in `_prisma_migrations`
 * exactly as `prisma migrate deploy` does, so either tool can take over. Runs offline (no schema
 * engine) and under an advisory lock, so two processes starting at once apply each migration once.
 */
export async function applyMigrations(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const names = await migrationNames(dir);
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const finished = new Map(done.rows.map((row) => [row.migration_name, row.checksum]));
    for (const name of names) {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = finished.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) throw new Error(`migration ${name} was modified after it was applied`);
        continue;
      }
      await client.query('BEGIN');
      try {
        const id = randomUUID();
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, checksum, name],
        );
        await client.query(sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
        applied.push(name);
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(error as Error).message}`);
      }
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
