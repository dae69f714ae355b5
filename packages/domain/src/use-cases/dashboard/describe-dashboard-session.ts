import type { DashboardSession, DashboardUser } from '../../entities/dashboard';
import type { Environment, Organization } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';

export interface DashboardProfile {
  user: DashboardUser;
  organization: Organization;
  /** The environments the user can switch between (the Herald-Environment header names one). */
  environments: Environment[];
}

/** Who is signed in, in which organization, and which environments they can work on. */
export class DescribeDashboardSession {
  constructor(private readonly tenancy: Pick<TenancyRepository, 'findOrganization' | 'listEnvironments'>) {}

  async execute(session: Pick<DashboardSession, 'user'>): Promise<DashboardProfile> {
    const { user } = session;
    const [organization, environments] = await Promise.all([this.tenancy.findOrganization(user.organizationId), this.tenancy.listEnvironments()]);
    if (!organization) throw new DomainError('UNAUTHORIZED', 'Your organization no longer exists');
    return { user, organization, environments: environments.filter((e) => e.organizationId === user.organizationId) };
  }
}
