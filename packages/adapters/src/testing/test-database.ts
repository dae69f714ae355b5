import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations } from '../database/migrate';

/** The migrated template every test database is copied from (copying beats migrating per test). */
export const TEMPLATE_DATABASE = 'herald_test_template';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Run once per test run: (re)creates the migrated template database. */
export async function prepareTemplate(adminUrl: string): Promise<void> {
  await admin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  });
  const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, TEMPLATE_DATABASE), max: 1 });
  try {
    await applyMigrations(pool);
  } finally {
    await pool.end();
  }
}

/** A fresh, migrated, throwaway database; returns its URL and a drop function. */
export async function createTestDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `herald_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => admin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
