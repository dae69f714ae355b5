import type { ProviderCatalogue } from '../../entities/provider-catalogue';
import type { IntegrationRepository } from '../../ports/integration-repository';

/** The environment whose built-in development sinks (outbox email and SMS) exist; others have none. */
export const SINK_ENVIRONMENT_SLUG = 'development';

/**
 * Gives every environment the in-app integration, and the Development environment the email and SMS
 * sinks, so a workflow runs end to end there before any real provider is configured. Any other
 * environment loses sinks an earlier version gave it: there, a message either really goes out or
 * fails visibly. Safe on every start.
 */
export class EnsureBuiltInIntegrations {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly integrations: IntegrationRepository,
  ) {}

  /** Returns how many integrations were created. */
  async execute(environments: Array<{ id: string; slug: string }>): Promise<number> {
    if (environments.length === 0) return 0;
    const development = environments.filter((e) => e.slug === SINK_ENVIRONMENT_SLUG).map((e) => e.id);
    const others = environments.filter((e) => e.slug !== SINK_ENVIRONMENT_SLUG).map((e) => e.id);
    const inApp = this.catalogue.builtIns.filter((b) => b.channel === 'in_app');
    const sinks = this.catalogue.builtIns.filter((b) => b.channel !== 'in_app');
    await this.integrations.retireBuiltIns(others, sinks.map((s) => s.providerId));
    const created = await this.integrations.ensureBuiltIns(environments.map((e) => e.id), inApp);
    return created + (development.length ? await this.integrations.ensureBuiltIns(development, sinks) : 0);
  }
}
