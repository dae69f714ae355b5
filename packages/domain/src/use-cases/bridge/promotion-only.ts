import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';

/** Production's workflows change only by promotion from Development (PromoteWorkflow). */
export function isPromotionOnly(environment: Pick<Environment, 'slug'>): boolean {
  return environment.slug === 'production';
}

/** Throws FORBIDDEN, saying how to make the change instead, when the environment takes workflows by promotion only. */
export function assertWritable(environment: Pick<Environment, 'slug' | 'name'>): void {
  if (!isPromotionOnly(environment)) return;
  throw new DomainError(
    'FORBIDDEN',
    `${environment.name}'s workflows change only by promotion: make the change in Development, then promote it (PUT /v2/workflows/{workflowId}/sync with targetEnvironmentId, or pnpm herald workflows promote <workflowId>). Activation stays editable.`,
  );
}
