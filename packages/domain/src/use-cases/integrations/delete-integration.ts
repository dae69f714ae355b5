import type { Integration } from '../../entities/integration';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';

/** Soft delete (irreversible); answers with the integrations that remain, as the interface's DELETE does. */
export class DeleteIntegration {
  constructor(private readonly integrations: IntegrationRepository) {}

  async execute(environmentId: string, integrationId: string, deletedBy?: string): Promise<Integration[]> {
    const existing = await this.integrations.find(environmentId, integrationId);
    if (!existing || !(await this.integrations.softDelete(environmentId, existing.id, deletedBy))) {
      throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', integrationId);
    }
    return this.integrations.list(environmentId);
  }
}
