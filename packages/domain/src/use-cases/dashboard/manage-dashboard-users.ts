import { checkPassword, normalizeEmail, validEmail, type DashboardRole, type DashboardUser } from '../../entities/dashboard';
import { DomainError } from '../../errors';
import type { AdminGuardedChange, DashboardUserRepository } from '../../ports/dashboard-user-repository';
import type { PasswordHasher } from '../../ports/password-hasher';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { DashboardSessions } from './dashboard-sessions';
import { installationOrganizationId } from './installation-organization';

/** Dashboard users as admins (the API) and the operator (`pnpm herald users`) manage them. */
export class ManageDashboardUsers {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly tenancy: Pick<TenancyRepository, 'listEnvironments'>,
    private readonly hasher: PasswordHasher,
    private readonly sessions: DashboardSessions,
  ) {}

  async list(organizationId?: string): Promise<DashboardUser[]> {
    return this.users.list(organizationId ?? (await installationOrganizationId(this.tenancy)));
  }

  async create(input: { email: string; role: DashboardRole; password: string }): Promise<DashboardUser> {
    const email = validEmail(input.email);
    checkPassword(input.password);
    const organizationId = await installationOrganizationId(this.tenancy);
    const user = await this.users.create({ organizationId, email, role: input.role, passwordHash: await this.hasher.hash(input.password) });
    if (!user) throw DomainError.field('email', 'is a dashboard user already', input.email);
    return user;
  }

  /** The user with this email; NOT_FOUND otherwise. */
  async byEmail(email: string): Promise<DashboardUser> {
    const found = await this.users.findByEmail(normalizeEmail(email));
    if (!found) throw DomainError.notFound('NOT_FOUND', 'Dashboard user', email);
    return found.user;
  }

  async setRole(organizationId: string, userId: string, role: DashboardRole): Promise<DashboardUser> {
    guarded(await this.users.setRole(organizationId, userId, role), userId, 'change the role of');
    return (await this.users.findById(organizationId, userId))!;
  }

  /** Deletes the user and ends their sessions. Only the operator's command may remove the last admin. */
  async delete(organizationId: string, userId: string, options: { allowLastAdmin?: boolean } = {}): Promise<void> {
    guarded(await this.users.delete(organizationId, userId, options.allowLastAdmin), userId, 'delete');
  }

  /** The operator sets a new password; every session of the user ends. */
  async resetPassword(userId: string, password: string): Promise<void> {
    checkPassword(password);
    if (!(await this.users.setPasswordHash(userId, await this.hasher.hash(password)))) throw DomainError.notFound('NOT_FOUND', 'Dashboard user', userId);
    await this.sessions.endOthers(userId);
  }
}

function guarded(change: AdminGuardedChange, userId: string, verb: string): void {
  if (change === 'not_found') throw DomainError.notFound('NOT_FOUND', 'Dashboard user', userId);
  if (change === 'last_admin') throw new DomainError('CONFLICT', `Cannot ${verb} the last admin: make another user an admin first`);
}
