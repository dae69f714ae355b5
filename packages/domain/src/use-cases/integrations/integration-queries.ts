import type { Integration } from '../../entities/integration';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';

/** Reads and single-step changes of integrations, each one repository call plus not-found handling. */
export class ListIntegrations {
  constructor(private readonly integrations: IntegrationRepository) {}

  execute(environmentId: string, options: { activeOnly?: boolean } = {}): Promise<Integration[]> {
    return this.integrations.list(environmentId, options);
  }
}

export class SetPrimaryIntegration {
  constructor(private readonly integrations: IntegrationRepository) {}

  async execute(environmentId: string, integrationId: string): Promise<Integration> {
    const existing = await this.integrations.find(environmentId, integrationId);
    if (!existing) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', integrationId);
    if (existing.channel === null) {
      throw DomainError.field('integrationId', 'an agent integration has no channel to be primary for', integrationId);
    }
    const updated = await this.integrations.setPrimary(environmentId, existing.id);
    if (!updated) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', integrationId);
    return updated;
  }
}

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
