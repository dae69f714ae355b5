import type { RetentionView } from '../../entities/retention';
import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { parseRetentionDays } from '../../rules/retention-horizon';
import { environmentBySlugOrId } from '../tenancy/environment-lookup';

/**
 * The operator's view and change of how long an environment keeps its delivery history
 * (`pnpm herald environments set <slug> --retention-days N`). A shorter retention takes effect at
 * the purge's next run; a longer one keeps what has not been purged yet.
 */
export class ConfigureRetention {
  constructor(
    private readonly tenancy: TenancyRepository,
    /** HERALD_RETENTION_DAYS, or DEFAULT_RETENTION_DAYS. */
    private readonly serviceDefault: number,
  ) {}

  async show(environmentSlugOrId: string): Promise<RetentionView> {
    return this.view(await environmentBySlugOrId(this.tenancy, environmentSlugOrId));
  }

  /** VALIDATION_FAILED names `retentionDays` unless it is a whole number of days in RETENTION_DAYS_RANGE. */
  async set(environmentSlugOrId: string, days: unknown): Promise<RetentionView> {
    const parsed = parseRetentionDays(days);
    if ('errors' in parsed) throw DomainError.validation(parsed.errors);
    return this.update(environmentSlugOrId, parsed.days);
  }

  /** Follows the service default again. */
  reset(environmentSlugOrId: string): Promise<RetentionView> {
    return this.update(environmentSlugOrId, null);
  }

  private async update(environmentSlugOrId: string, retentionDays: number | null): Promise<RetentionView> {
    const environment = await environmentBySlugOrId(this.tenancy, environmentSlugOrId);
    const updated = await this.tenancy.updateEnvironment(environment.id, { retentionDays });
    if (!updated) throw new DomainError('ENVIRONMENT_NOT_FOUND', `Environment '${environmentSlugOrId}' was not found`);
    return this.view(updated);
  }

  private view(environment: Environment): RetentionView {
    const own = environment.retentionDays ?? null;
    return { environment: { id: environment.id, slug: environment.slug }, own, days: own ?? this.serviceDefault };
  }
}
