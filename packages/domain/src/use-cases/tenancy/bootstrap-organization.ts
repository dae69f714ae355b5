import { DEFAULT_ENVIRONMENTS, type Environment } from '../../entities/tenancy';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { generateApiKey, generateSecret, hashApiKey, keyHint } from './api-keys';

export interface BootstrapOrganizationOutput {
  environments: Environment[];
  /** Set only when this call generated a key: it is shown once and never stored in plain text. */
  generatedKey?: { environment: string; key: string };
}

/**
 * First start: one organization with Development and Production environments and a Development secret key.
 * A configured key becomes Development's key (idempotently, on every start).
 */
export class BootstrapOrganization {
  constructor(private readonly tenancy: TenancyRepository) {}

  async execute(configuredKey?: string): Promise<BootstrapOrganizationOutput> {
    const { environments, created } = await this.tenancy.bootstrap({
      organizationName: 'Default organization',
      environments: DEFAULT_ENVIRONMENTS.map((e) => ({ ...e, signingSecret: generateSecret() })),
    });
    const development = environments.find((e) => e.slug === 'development') ?? environments[0];
    if (configuredKey) {
      await this.tenancy.addApiKey(development.id, hashApiKey(configuredKey), keyHint(configuredKey), configuredKey);
      return { environments };
    }
    if (!created) return { environments };
    // Production gets its keys from the operator command, so no unseen secret exists.
    const key = generateApiKey();
    await this.tenancy.addApiKey(development.id, hashApiKey(key), keyHint(key), key);
    const generatedKey = { environment: development.slug, key };
    return { environments, generatedKey };
  }
}
