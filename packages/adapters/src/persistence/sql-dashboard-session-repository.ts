import type { DashboardSession, DashboardSessionRepository } from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid } from './sql-params';
import { toDashboardUser, type DashboardUserRow } from './sql-dashboard-user-repository';

/** Dashboard sessions, found by the sha256 of their token on every dashboard request (a unique-index read). */
export class SqlDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly pool: Pool) {}

  async create(session: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(
      'INSERT INTO dashboard_sessions (user_id, token_hash, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4) RETURNING id',
      [session.userId, session.tokenHash, session.createdAt, session.expiresAt],
    );
    return rows[0].id;
  }

  async findByTokenHash(tokenHash: string): Promise<DashboardSession | null> {
    const { rows } = await this.pool.query<DashboardUserRow & { session_id: string; session_created_at: Date; last_seen_at: Date; expires_at: Date }>(
      `SELECT s.id AS session_id, s.created_at AS session_created_at, s.last_seen_at, s.expires_at,
              u.id, u.organization_id, u.email, u.role, u.created_at, u.last_sign_in_at
         FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id
        WHERE s.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? { id: row.session_id, user: toDashboardUser(row), createdAt: row.session_created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at } : null;
  }

  async touch(sessionId: string, at: Date): Promise<void> {
    await this.pool.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2', [sessionId, at]);
  }

  async delete(sessionId: string): Promise<boolean> {
    if (!isUuid(sessionId)) return false;
    const { rowCount } = await this.pool.query('DELETE FROM dashboard_sessions WHERE id = $1', [sessionId]);
    return rowCount === 1;
  }

  async deleteForUser(userId: string, exceptSessionId?: string): Promise<number> {
    if (!isUuid(userId)) return 0;
    const { rowCount } = await this.pool.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2::uuid', [userId, exceptSessionId ?? null]);
    return rowCount ?? 0;
  }

  async purgeExpired(now: Date, idleSince: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM dashboard_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleSince]);
    return rowCount ?? 0;
  }
}
