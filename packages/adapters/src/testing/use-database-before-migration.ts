import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { applyMigrations, MIGRATIONS_DIR } from '../database/migrate';

/**
 * For a migration's test: a fresh database with every migration before `migration` applied, so
 * the test stores rows the old way, then applies the rest (`applyMigrations(pool)`) and reads them.
 */
export function useDatabaseBeforeMigration(migration: string): { readonly pool: pg.Pool } {
  let pool: pg.Pool | undefined;
  let admin: pg.Client | undefined;
  let database: string | undefined;
  let before: string | undefined;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    database = `herald_test_migration_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(inject('adminDatabaseUrl'));
    url.pathname = `/${database}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    before = await mkdtemp(join(tmpdir(), 'herald-migrations-'));
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (name < migration) await cp(join(MIGRATIONS_DIR, name), join(before, name), { recursive: true });
    }
    await applyMigrations(pool, before);
  });
  afterAll(async () => {
    // pg-pool's end() resolves before its connections have gone: the DROP ... WITH (FORCE) below can
    // still cut one off, which its pool then reports as an error that nothing would handle.
    pool?.on('error', () => undefined);
    await pool?.end();
    if (database) await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
    if (before) await rm(before, { recursive: true, force: true });
  });
  return {
    get pool() {
      if (!pool) throw new Error('the database is created in beforeAll');
      return pool;
    },
  };
}

/** An organization, its environment and a workflow ('alert'), written with SQL every migration accepts. */
export async function insertWorkflowEnvironment(pool: pg.Pool): Promise<{ env: string; workflow: string }> {
  const ids = { org: randomUUID(), env: randomUUID(), workflow: randomUUID() };
  await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'org')`, [ids.org]);
  await pool.query(`INSERT INTO environments (id, organization_id, name, slug, signing_secret) VALUES ($1, $2, 'Development', 'development', 's')`, [ids.env, ids.org]);
  await pool.query(`INSERT INTO workflows (id, environment_id, workflow_id, name) VALUES ($1, $2, 'alert', 'Alert')`, [ids.workflow, ids.env]);
  return ids;
}
