import type { DashboardInvitation, DashboardInvitationRepository, DashboardRole, InvitationAcceptance } from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid } from './sql-params';
import { createDashboardUser } from './sql-dashboard-user-repository';
import { inTransaction } from './transaction';

const COLUMNS = 'id, organization_id, purpose, email, role, invited_by, created_at, expires_at';
/** Serialises acceptances (rare): the first admin is made once, however many setup tokens are used at the same time. */
const ACCEPT_LOCK = 72_616_041;

interface InvitationRow {
  id: string;
  organization_id: string;
  purpose: DashboardInvitation['purpose'];
  email: string | null;
  role: DashboardRole;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

function toInvitation(row: InvitationRow): DashboardInvitation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    purpose: row.purpose,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export class SqlDashboardInvitationRepository implements DashboardInvitationRepository {
  constructor(private readonly pool: Pool) {}

  async create(invitation: Omit<DashboardInvitation, 'id' | 'createdAt'>, tokenHash: string): Promise<DashboardInvitation> {
    const { rows } = await this.pool.query<InvitationRow>(
      `INSERT INTO dashboard_invitations (organization_id, purpose, email, role, invited_by, expires_at, token_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [invitation.organizationId, invitation.purpose, invitation.email, invitation.role, invitation.invitedBy, invitation.expiresAt, tokenHash],
    );
    return toInvitation(rows[0]);
  }

  async findByTokenHash(tokenHash: string, now: Date): Promise<DashboardInvitation | null> {
    const { rows } = await this.pool.query<InvitationRow>(`SELECT ${COLUMNS} FROM dashboard_invitations WHERE token_hash = $1 AND expires_at > $2`, [tokenHash, now]);
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  async listPending(organizationId: string, now: Date): Promise<DashboardInvitation[]> {
    if (!isUuid(organizationId)) return [];
    const { rows } = await this.pool.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM dashboard_invitations WHERE organization_id = $1 AND purpose = 'invitation' AND expires_at > $2 ORDER BY created_at DESC, id`,
      [organizationId, now],
    );
    return rows.map(toInvitation);
  }

  async revoke(organizationId: string, invitationId: string): Promise<boolean> {
    if (!isUuid(organizationId) || !isUuid(invitationId)) return false;
    const { rowCount } = await this.pool.query("DELETE FROM dashboard_invitations WHERE id = $1 AND organization_id = $2 AND purpose = 'invitation'", [invitationId, organizationId]);
    return rowCount === 1;
  }

  accept(tokenHash: string, user: { email: string | null; passwordHash: string }, now: Date): Promise<InvitationAcceptance> {
    return inTransaction(this.pool, async (client): Promise<InvitationAcceptance> => {
      // Taken before any row is touched, so acceptances queue here rather than deadlock on each other's rows.
      await client.query('SELECT pg_advisory_xact_lock($1)', [ACCEPT_LOCK]);
      // Deleting it is taking it: a second use of the token finds nothing.
      const taken = await client.query<InvitationRow>(`DELETE FROM dashboard_invitations WHERE token_hash = $1 AND expires_at > $2 RETURNING ${COLUMNS}`, [tokenHash, now]);
      const invitation = taken.rows[0];
      if (!invitation) return { outcome: 'invalid' };
      if (invitation.purpose === 'setup') {
        const { rows } = await client.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM dashboard_users) AS exists');
        // Once a user exists every setup token is void: they all go.
        if (rows[0].exists) return (await client.query("DELETE FROM dashboard_invitations WHERE purpose = 'setup'"), { outcome: 'users_exist' });
      }
      const email = user.email ?? invitation.email!;
      const created = await createDashboardUser(client, { organizationId: invitation.organization_id, email, role: invitation.role, passwordHash: user.passwordHash });
      if (!created) return { outcome: 'email_taken' };
      if (invitation.purpose === 'setup') await client.query("DELETE FROM dashboard_invitations WHERE purpose = 'setup'");
      return { outcome: 'accepted', user: created };
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM dashboard_invitations WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
