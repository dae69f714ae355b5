import { ChannelCredentialCipher, PrismaChannelConnectionRepository, PrismaChannelEndpointRepository, PrismaIntegrationRepository, PrismaOutboxRepository } from '@herald/adapters';
import {
  ChannelConnectionRepository,
  ChannelEndpointRepository,
  CreateChannelConnection,
  CreateChannelEndpoint,
  CreateIntegration,
  CredentialCipher,
  DeleteChannelConnection,
  DeleteChannelEndpoint,
  DeleteIntegration,
  EnsureBuiltInIntegrations,
  GetChannelConnection,
  GetChannelEndpoint,
  InboxChannelConnections,
  InboxChannelEndpoints,
  IntegrationRepository,
  ListChannelConnections,
  ListChannelEndpoints,
  ListIntegrations,
  ListOutbox,
  OutboxRepository,
  ProviderCatalogue,
  ProviderRegistry,
  SendIntegrationTest,
  SetPrimaryIntegration,
  SubscriberRepository,
  UpdateChannelConnection,
  UpdateChannelEndpoint,
  UpdateIntegration,
  providerCatalogue,
} from '@herald/domain';
import type { Wiring } from './binder';

/**
 * Integrations, the development outbox, and subscribers' channel connections and endpoints (secrets
 * encrypted), also as the Inbox's subscriber manages their own.
 */
export const integrations: Wiring = (bind, { db, config }) => {
  const catalogue = providerCatalogue(config.serviceName);
  bind.value(ProviderCatalogue, catalogue);
  bind.factory(IntegrationRepository, [CredentialCipher], (cipher) => new PrismaIntegrationRepository(db.prisma, cipher));
  // Endpoint addresses are sealed value by value like subscribers' channel credentials (docs/configuration.md).
  bind.factory(ChannelConnectionRepository, [CredentialCipher, ChannelCredentialCipher], (cipher, addresses) => new PrismaChannelConnectionRepository(db.prisma, cipher, addresses));
  bind.factory(ChannelEndpointRepository, [ChannelCredentialCipher], (addresses) => new PrismaChannelEndpointRepository(db.prisma, addresses));
  bind.value(OutboxRepository, new PrismaOutboxRepository(db.prisma));

  bind.factory(CreateIntegration, [IntegrationRepository], (i) => new CreateIntegration(catalogue, i));
  bind.factory(UpdateIntegration, [IntegrationRepository], (i) => new UpdateIntegration(catalogue, i));
  bind.construct(ListIntegrations, [IntegrationRepository]);
  bind.construct(SetPrimaryIntegration, [IntegrationRepository]);
  bind.construct(DeleteIntegration, [IntegrationRepository]);
  bind.factory(SendIntegrationTest, [IntegrationRepository, ProviderRegistry], (i, providers) => new SendIntegrationTest(i, providers, config.serviceName));
  bind.factory(EnsureBuiltInIntegrations, [IntegrationRepository], (i) => new EnsureBuiltInIntegrations(catalogue, i));
  bind.factory(ListOutbox, [OutboxRepository], (o) => new ListOutbox(catalogue, o));

  bind.construct(CreateChannelConnection, [IntegrationRepository, SubscriberRepository, ChannelConnectionRepository]);
  bind.construct(GetChannelConnection, [ChannelConnectionRepository]);
  bind.construct(ListChannelConnections, [ChannelConnectionRepository]);
  bind.construct(UpdateChannelConnection, [ChannelConnectionRepository]);
  bind.construct(DeleteChannelConnection, [ChannelConnectionRepository]);
  bind.factory(
    CreateChannelEndpoint,
    [IntegrationRepository, SubscriberRepository, ChannelConnectionRepository, ChannelEndpointRepository],
    (i, s, c, e) => new CreateChannelEndpoint(catalogue, i, s, c, e),
  );
  bind.construct(GetChannelEndpoint, [ChannelEndpointRepository]);
  bind.construct(ListChannelEndpoints, [ChannelEndpointRepository]);
  bind.construct(UpdateChannelEndpoint, [ChannelEndpointRepository]);
  bind.construct(DeleteChannelEndpoint, [ChannelEndpointRepository]);
  bind.construct(InboxChannelConnections, [ChannelConnectionRepository, CreateChannelConnection]);
  bind.construct(InboxChannelEndpoints, [ChannelEndpointRepository, CreateChannelEndpoint]);
};
