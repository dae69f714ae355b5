import type { AdminGuardedChange, DashboardRole, DashboardUser, DashboardUserRepository, NewDashboardUser } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import { isUuid } from './sql-params';
import { inTransaction } from './transaction';

const COLUMNS = 'id, organization_id, email, role, created_at, last_sign_in_at';

export interface DashboardUserRow {
  id: string;
  organization_id: string;
  email: string;
  role: DashboardRole;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export function toDashboardUser(row: DashboardUserRow): DashboardUser {
  return { id: row.id, organizationId: row.organization_id, email: row.email, role: row.role, createdAt: row.created_at, lastSignInAt: row.last_sign_in_at };
}

/** Dashboard users; the password hash is read only where a password is checked. */
export class SqlDashboardUserRepository implements DashboardUserRepository {
  constructor(private readonly pool: Pool) {}

  async countUsers(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_users');
    return rows[0].n;
  }

  async list(organizationId: string): Promise<DashboardUser[]> {
    if (!isUuid(organizationId)) return [];
    const { rows } = await this.pool.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]);
    return rows.map(toDashboardUser);
  }

  async findById(organizationId: string, userId: string): Promise<DashboardUser | null> {
    if (!isUuid(organizationId) || !isUuid(userId)) return null;
    const { rows } = await this.pool.query<DashboardUserRow>(`SELECT ${COLUMNS} FROM dashboard_users WHERE id = $1 AND organization_id = $2`, [userId, organizationId]);
    return rows[0] ? toDashboardUser(rows[0]) : null;
  }

  async findByEmail(email: string): Promise<{ user: DashboardUser; passwordHash: string } | null> {
    const { rows } = await this.pool.query<DashboardUserRow & { password_hash: string }>(`SELECT ${COLUMNS}, password_hash FROM dashboard_users WHERE email = $1`, [email]);
    return rows[0] ? { user: toDashboardUser(rows[0]), passwordHash: rows[0].password_hash } : null;
  }

  async passwordHash(userId: string): Promise<string | null> {
    if (!isUuid(userId)) return null;
    const { rows } = await this.pool.query<{ password_hash: string }>('SELECT password_hash FROM dashboard_users WHERE id = $1', [userId]);
    return rows[0]?.password_hash ?? null;
  }

  create(user: NewDashboardUser): Promise<DashboardUser | null> {
    return createDashboardUser(this.pool, user);
  }

  setRole(organizationId: string, userId: string, role: DashboardRole): Promise<AdminGuardedChange> {
    return this.keepingAnAdmin(organizationId, userId, role !== 'admin', (client) =>
      client.query('UPDATE dashboard_users SET role = $2, updated_at = now() WHERE id = $1', [userId, role]),
    );
  }

  delete(organizationId: string, userId: string, allowLastAdmin = false): Promise<AdminGuardedChange> {
    return this.keepingAnAdmin(organizationId, userId, !allowLastAdmin, (client) => client.query('DELETE FROM dashboard_users WHERE id = $1', [userId]));
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const { rowCount } = await this.pool.query('UPDATE dashboard_users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, passwordHash]);
    return rowCount === 1;
  }

  async recordSignIn(userId: string, at: Date): Promise<void> {
    await this.pool.query('UPDATE dashboard_users SET last_sign_in_at = $2 WHERE id = $1', [userId, at]);
  }

  /**
   * Runs `change` unless it would remove the organization's last admin (`guard`). The admins are
   * locked first, so two admins demoting each other at once cannot both succeed: the second sees
   * the first's change once it commits.
   */
  private async keepingAnAdmin(organizationId: string, userId: string, guard: boolean, change: (client: PoolClient) => Promise<unknown>): Promise<AdminGuardedChange> {
    if (!isUuid(organizationId) || !isUuid(userId)) return 'not_found';
    return inTransaction(this.pool, async (client) => {
      const admins = await client.query<{ id: string }>("SELECT id FROM dashboard_users WHERE organization_id = $1 AND role = 'admin' FOR UPDATE", [organizationId]);
      const target = await client.query<{ role: string }>('SELECT role FROM dashboard_users WHERE id = $1 AND organization_id = $2 FOR UPDATE', [userId, organizationId]);
      if (!target.rows[0]) return 'not_found';
      if (guard && target.rows[0].role === 'admin' && admins.rows.every((a) => a.id === userId)) return 'last_admin';
      await change(client);
      return 'done';
    });
  }
}

/** Inserts a user; null when the email is taken (without an error, so a transaction around it goes on). */
export async function createDashboardUser(db: Pool | PoolClient, user: NewDashboardUser): Promise<DashboardUser | null> {
  const { rows } = await db.query<DashboardUserRow>(
    `INSERT INTO dashboard_users (organization_id, email, role, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING ${COLUMNS}`,
    [user.organizationId, user.email, user.role, user.passwordHash],
  );
  return rows[0] ? toDashboardUser(rows[0]) : null;
}
