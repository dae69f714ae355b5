import type { ProviderCatalogue } from '../../entities/provider-catalogue';
import type { IntegrationRepository } from '../../ports/integration-repository';

/**
 * Gives every environment the in-app integration and the development email and SMS sinks, so a
 * workflow runs end to end before any real provider is configured. Safe on every start.
 */
export class EnsureBuiltInIntegrations {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly integrations: IntegrationRepository,
  ) {}

  /** Returns how many integrations were created. */
  execute(environmentIds: string[]): Promise<number> {
    if (environmentIds.length === 0) return Promise.resolve(0);
    return this.integrations.ensureBuiltIns(environmentIds, this.catalogue.builtIns);
  }
}
