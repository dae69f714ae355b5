import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';

/** The environment an operator names by slug (`production`) or id; ENVIRONMENT_NOT_FOUND lists the known slugs. */
export async function environmentBySlugOrId(tenancy: Pick<TenancyRepository, 'listEnvironments'>, slugOrId: string): Promise<Environment> {
  const all = await tenancy.listEnvironments();
  const found = all.find((e) => e.slug === slugOrId.toLowerCase() || e.id === slugOrId);
  if (!found) {
    const known = all.map((e) => e.slug).join(', ');
    throw new DomainError('ENVIRONMENT_NOT_FOUND', `Environment '${slugOrId}' was not found (known: ${known})`);
  }
  return found;
}
