import { checkPassword, validEmail, type DashboardInvitation, type DashboardRole, type DashboardUser } from '../../entities/dashboard';
import { DomainError } from '../../errors';
import type { DashboardInvitationRepository } from '../../ports/dashboard-invitation-repository';
import type { DashboardUserRepository } from '../../ports/dashboard-user-repository';
import type { PasswordHasher } from '../../ports/password-hasher';
import type { Clock } from '../../shared/clock';
import type { DashboardSessions, OpenedSession } from './dashboard-sessions';
import { hashDashboardToken, newDashboardToken } from './dashboard-tokens';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/**
 * An admin invites a person by email with a role; the invitation's token (shown to the admin once,
 * to pass on) lets that person choose a password within 7 days, once.
 */
export class InviteDashboardUsers {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly invitations: DashboardInvitationRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: DashboardSessions,
    private readonly clock: Clock,
  ) {}

  async invite(admin: DashboardUser, input: { email: string; role: DashboardRole }): Promise<{ invitation: DashboardInvitation; token: string }> {
    const email = validEmail(input.email);
    if (await this.users.findByEmail(email)) throw DomainError.field('email', 'is a dashboard user already', input.email);
    const token = newDashboardToken();
    const expiresAt = new Date(this.clock.now().getTime() + INVITATION_LIFETIME_MS);
    const invitation = await this.invitations.create(
      { organizationId: admin.organizationId, purpose: 'invitation', email, role: input.role, invitedBy: admin.id, expiresAt },
      hashDashboardToken(token),
    );
    return { invitation, token };
  }

  listPending(organizationId: string): Promise<DashboardInvitation[]> {
    return this.invitations.listPending(organizationId, this.clock.now());
  }

  async revoke(organizationId: string, invitationId: string): Promise<void> {
    if (!(await this.invitations.revoke(organizationId, invitationId))) throw DomainError.notFound('NOT_FOUND', 'Invitation', invitationId);
  }

  /** What the token invites to (for the page that accepts it); UNAUTHORIZED when it is not a pending invitation. */
  async inspect(token: string): Promise<DashboardInvitation> {
    const invitation = await this.invitations.findByTokenHash(hashDashboardToken(token), this.clock.now());
    if (invitation?.purpose !== 'invitation') throw invalidInvitation();
    return invitation;
  }

  /** The invited person chooses a password: their user is created and signed in. */
  async accept(input: { token: string; password: string }): Promise<OpenedSession> {
    checkPassword(input.password);
    const invitation = await this.inspect(input.token);
    const passwordHash = await this.hasher.hash(input.password);
    const result = await this.invitations.accept(hashDashboardToken(input.token), { email: invitation.email, passwordHash }, this.clock.now());
    if (result.outcome === 'email_taken') throw new DomainError('CONFLICT', `${invitation.email} is a dashboard user already: sign in`);
    if (result.outcome !== 'accepted') throw invalidInvitation();
    return this.sessions.open(result.user);
  }
}

function invalidInvitation(): DomainError {
  return new DomainError('UNAUTHORIZED', 'Invitation is not valid: it was used, revoked or has expired (ask an admin for a new one)');
}
