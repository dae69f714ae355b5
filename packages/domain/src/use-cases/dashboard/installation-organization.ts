import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';

/** Herald runs one organization (made at first start): the one dashboard users belong to. */
export async function installationOrganizationId(tenancy: Pick<TenancyRepository, 'listEnvironments'>): Promise<string> {
  const [first] = await tenancy.listEnvironments();
  if (!first) throw new DomainError('ENVIRONMENT_NOT_FOUND', 'No organization exists yet: start the service once first');
  return first.organizationId;
}
