import type { DashboardSession } from '../../entities/dashboard';
import type { Caller, Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { SharedReads } from '../../shared/shared-reads';
import type { DashboardSessions } from './dashboard-sessions';

/**
 * A dashboard session acting on one environment of its organization: the API's caller, as an API
 * key of that environment would be, but without idempotency (the interface keeps it to API keys).
 * Environments are read at most every few seconds: they are few and change rarely.
 */
export class AuthorizeDashboardRequest {
  private readonly environments: SharedReads<Environment[]>;

  constructor(
    private readonly sessions: DashboardSessions,
    private readonly tenancy: Pick<TenancyRepository, 'listEnvironments'>,
    ttlMs = 5_000,
  ) {
    this.environments = new SharedReads(ttlMs);
  }

  /** UNAUTHORIZED without a live session; ENVIRONMENT_NOT_FOUND unless the environment is the session's organization's. */
  async execute(token: string | undefined, environmentId: string): Promise<{ session: DashboardSession; caller: Caller }> {
    const session = await this.sessions.authenticate(token);
    // The installation's few environments, not a lookup by the client's string.
    const all = await this.environments.get('all', () => this.tenancy.listEnvironments());
    const environment = all.find((e) => e.id === environmentId.toLowerCase());
    if (!environment || environment.organizationId !== session.user.organizationId) {
      throw new DomainError('ENVIRONMENT_NOT_FOUND', `Environment '${environmentId}' is not one of your organization's environments`);
    }
    return { session, caller: { organizationId: environment.organizationId, environmentId: environment.id, idempotencyEnabled: false } };
  }
}
