import { PrismaTenancyRepository } from '@herald/adapters';
import { AuthenticateApiKey, BootstrapOrganization, ConfigureInboxSecurity, ConfigureRetryPolicy, CredentialCipher, GetEnvironment, ManageApiKeys, TenancyRepository } from '@herald/domain';
import type { Wiring } from './binder';

/** Organizations, environments and API keys. */
export const tenancy: Wiring = (bind, { db, config }) => {
  // API key secrets are kept encrypted: the Inbox's HMAC check needs them back.
  bind.factory(TenancyRepository, [CredentialCipher], (cipher) => new PrismaTenancyRepository(db.prisma, cipher));
  bind.construct(AuthenticateApiKey, [TenancyRepository]);
  bind.construct(BootstrapOrganization, [TenancyRepository]);
  bind.construct(ManageApiKeys, [TenancyRepository]);
  bind.construct(ConfigureInboxSecurity, [TenancyRepository]);
  bind.construct(GetEnvironment, [TenancyRepository]);
  bind.factory(ConfigureRetryPolicy, [TenancyRepository], (tenancy) => new ConfigureRetryPolicy(tenancy, config.retryPolicy));
};
