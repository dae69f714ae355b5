import { randomUUID } from 'node:crypto';
import { channelConnectionRepositoryContract } from './channel-connection-repository-contract';
import { channelEndpointRepositoryContract } from './channel-endpoint-repository-contract';
import { InMemoryChannelConnectionRepository } from './in-memory-channel-connection-repository';
import { InMemoryChannelEndpointRepository } from './in-memory-channel-endpoint-repository';
import { InMemoryIntegrationRepository } from './in-memory-integration-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';

const setup = async () => {
  const store = new InMemoryStore();
  return {
    connections: new InMemoryChannelConnectionRepository(store),
    endpoints: new InMemoryChannelEndpointRepository(store),
    integrations: new InMemoryIntegrationRepository(store),
    subscribers: new InMemorySubscriberRepository(store),
    environments: [randomUUID(), randomUUID()] as [string, string],
  };
};

channelConnectionRepositoryContract('in memory', setup);
channelEndpointRepositoryContract('in memory', setup);
