import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { useDatabaseBeforeMigration } from '../testing/use-database-before-migration';
import { applyMigrations } from './migrate';

// The migration that makes Production's Inbox require the subscriber HMAC on existing installations.
const MIGRATION = '20261128064714_inbox_security';
const database = useDatabaseBeforeMigration(MIGRATION);

it('turns the HMAC on for every Production environment (ending its unverified tokens) and leaves Development open', async () => {
  const { pool } = database;
  const org = randomUUID();
  await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'org')`, [org]);
  const environment = async (slug: string, inboxHmac: boolean) =>
    (await pool.query<{ id: string }>(`INSERT INTO environments (organization_id, name, slug, signing_secret, inbox_hmac) VALUES ($1, $2, $2, 's', $3) RETURNING id`, [org, slug, inboxHmac])).rows[0].id;
  const ids = { development: await environment('development', false), production: await environment('production', false), staging: await environment('staging', true) };

  expect(await applyMigrations(pool)).toContain(MIGRATION);
  const { rows } = await pool.query<{ id: string; inbox_hmac: boolean; inbox_security_version: number }>('SELECT id, inbox_hmac, inbox_security_version FROM environments');
  const after = Object.fromEntries(rows.map((r) => [r.id, [r.inbox_hmac, r.inbox_security_version]]));
  expect(after[ids.production]).toEqual([true, 1]);
  expect(after[ids.development]).toEqual([false, 0]);
  expect(after[ids.staging]).toEqual([true, 0]);
  // An environment created without saying requires the HMAC.
  const [{ inbox_hmac }] = (await pool.query(`INSERT INTO environments (organization_id, name, slug, signing_secret) VALUES ($1, 'x', 'x', 's') RETURNING inbox_hmac`, [org])).rows;
  expect(inbox_hmac).toBe(true);
});
