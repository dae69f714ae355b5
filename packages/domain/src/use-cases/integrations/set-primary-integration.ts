import type { Integration } from '../../entities/integration';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';

/** Makes an integration the primary one of its channel; an agent integration has no channel to be primary for. */
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
