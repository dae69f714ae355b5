import { parseRetryPolicy, type RetryPolicy } from '../../entities/retry-policy';
import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { environmentBySlugOrId } from './environment-lookup';

export interface RetryPolicyView {
  environment: Environment;
  /** What the environment's sends use now. */
  effective: RetryPolicy;
  /** The fields the environment sets itself; null: it follows the service default. */
  own: Partial<RetryPolicy> | null;
}

/** The operator's view and change of an environment's provider retry policy (`pnpm herald retry-policy`). */
export class ConfigureRetryPolicy {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly serviceDefault: RetryPolicy,
  ) {}

  async show(environmentSlugOrId: string): Promise<RetryPolicyView> {
    const environment = await environmentBySlugOrId(this.tenancy, environmentSlugOrId);
    const own = environment.retryPolicy ?? null;
    return { environment, own, effective: { ...this.serviceDefault, ...(own ?? {}) } };
  }

  /** Sets the fields given (others keep following the service default); VALIDATION_FAILED names a bad field. */
  async set(environmentSlugOrId: string, input: unknown): Promise<RetryPolicyView> {
    const environment = await environmentBySlugOrId(this.tenancy, environmentSlugOrId);
    const parsed = parseRetryPolicy(input, this.serviceDefault);
    if ('errors' in parsed) throw DomainError.validation(parsed.errors);
    const own = { ...(environment.retryPolicy ?? {}), ...(input as Partial<RetryPolicy>) };
    await this.tenancy.setRetryPolicy(environment.id, own);
    return this.show(environment.id);
  }

  async reset(environmentSlugOrId: string): Promise<RetryPolicyView> {
    const environment = await environmentBySlugOrId(this.tenancy, environmentSlugOrId);
    await this.tenancy.setRetryPolicy(environment.id, null);
    return this.show(environment.id);
  }
}
