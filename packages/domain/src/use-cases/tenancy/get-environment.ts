import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';

/** The caller's own environment (its public application identifier, inbox settings). */
export class GetEnvironment {
  constructor(private readonly tenancy: TenancyRepository) {}

  async execute(environmentId: string): Promise<Environment> {
    const environment = await this.tenancy.findEnvironment(environmentId);
    if (!environment) throw new DomainError('ENVIRONMENT_NOT_FOUND', `Environment '${environmentId}' was not found`);
    return environment;
  }
}
