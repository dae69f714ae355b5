import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * An organization with two environments of its own, for one contract test: what the test writes
 * there no other test sees, so its lists are exact.
 */
export async function contractEnvironments(pool: Pool): Promise<[string, string]> {
  const [org, a, b] = [randomUUID(), randomUUID(), randomUUID()];
  await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'contract')`, [org]);
  await pool.query(
    `INSERT INTO environments (id, organization_id, name, slug, signing_secret)
     VALUES ($2, $1, 'Development', 'development', 's1'), ($3, $1, 'Production', 'production', 's2')`,
    [org, a, b],
  );
  return [a, b];
}
