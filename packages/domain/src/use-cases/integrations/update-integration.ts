import type { Credentials, Integration, IntegrationChanges, IntegrationConfigurations } from '../../entities/integration';
import type { ProviderCatalogue } from '../../entities/provider-catalogue';
import type { StepFilter } from '../../entities/step-filter';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';
import { checkIntegrationInput } from './check-integration-input';

export interface UpdateIntegrationInput {
  environmentId: string;
  /** Internal id or identifier. */
  integrationId: string;
  name?: string;
  identifier?: string;
  active?: boolean;
  /** Merged over the stored credentials, so a caller who cannot read them can still change one. */
  credentials?: Credentials;
  configurations?: IntegrationConfigurations;
  conditions?: StepFilter[];
}

export class UpdateIntegration {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly integrations: IntegrationRepository,
  ) {}

  async execute(input: UpdateIntegrationInput): Promise<Integration> {
    const existing = await this.integrations.find(input.environmentId, input.integrationId);
    if (!existing) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', input.integrationId);
    const provider = this.catalogue.find(existing.providerId);
    if (!provider) throw new Error(`integration ${existing.id} has unknown provider ${existing.providerId}`);

    const credentials = input.credentials && { ...existing.credentials, ...input.credentials };
    checkIntegrationInput(provider, { credentials, conditions: input.conditions, name: input.name, identifier: input.identifier, configurations: input.configurations });
    const changes: IntegrationChanges = {
      name: input.name?.trim(),
      identifier: input.identifier?.trim(),
      active: input.active,
      credentials,
      configurations: input.configurations && { ...existing.configurations, ...input.configurations },
      conditions: input.conditions,
    };
    const updated = await this.integrations.update(input.environmentId, existing.id, changes);
    if (!updated) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', input.integrationId);
    return updated;
  }
}
