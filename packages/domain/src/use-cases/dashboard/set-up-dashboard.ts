import { checkPassword, validEmail } from '../../entities/dashboard';
import { DomainError } from '../../errors';
import type { DashboardInvitationRepository } from '../../ports/dashboard-invitation-repository';
import type { DashboardUserRepository } from '../../ports/dashboard-user-repository';
import type { PasswordHasher } from '../../ports/password-hasher';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { Clock } from '../../shared/clock';
import type { DashboardSessions, OpenedSession } from './dashboard-sessions';
import { hashDashboardToken, newDashboardToken } from './dashboard-tokens';
import { installationOrganizationId } from './installation-organization';

export const SETUP_TOKEN_LIFETIME_MS = 24 * 60 * 60_000;

/**
 * The first admin. While no user exists, each start of the service issues a one-time setup token
 * (printed, never stored in plain text); whoever holds one chooses the first admin's email and
 * password. Once a user exists, every setup token is void.
 */
export class SetUpDashboard {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly invitations: DashboardInvitationRepository,
    private readonly tenancy: Pick<TenancyRepository, 'listEnvironments'>,
    private readonly hasher: PasswordHasher,
    private readonly sessions: DashboardSessions,
    private readonly clock: Clock,
  ) {}

  async required(): Promise<boolean> {
    return (await this.users.countUsers()) === 0;
  }

  /** A new setup token when no user exists yet, else null. */
  async issueToken(): Promise<{ token: string; expiresAt: Date } | null> {
    if (!(await this.required())) return null;
    const token = newDashboardToken();
    const expiresAt = new Date(this.clock.now().getTime() + SETUP_TOKEN_LIFETIME_MS);
    const organizationId = await installationOrganizationId(this.tenancy);
    await this.invitations.create({ organizationId, purpose: 'setup', email: null, role: 'admin', invitedBy: null, expiresAt }, hashDashboardToken(token));
    return { token, expiresAt };
  }

  async complete(input: { token: string; email: string; password: string }): Promise<OpenedSession> {
    const email = validEmail(input.email);
    checkPassword(input.password);
    const tokenHash = hashDashboardToken(input.token);
    // Checked before hashing the password: a wrong token costs no hashing work.
    const invitation = await this.invitations.findByTokenHash(tokenHash, this.clock.now());
    if (invitation?.purpose !== 'setup') {
      if (!(await this.required())) throw new DomainError('CONFLICT', 'The dashboard is set up already: sign in');
      throw invalidSetupToken();
    }
    const result = await this.invitations.accept(tokenHash, { email, passwordHash: await this.hasher.hash(input.password) }, this.clock.now());
    if (result.outcome === 'users_exist') throw new DomainError('CONFLICT', 'The dashboard is set up already: sign in');
    if (result.outcome !== 'accepted') throw invalidSetupToken();
    return this.sessions.open(result.user);
  }
}

function invalidSetupToken(): DomainError {
  return new DomainError('UNAUTHORIZED', 'Setup token is not valid: use the one the service printed at its last start (valid 24 hours), or create the first admin with `pnpm herald users create`');
}
