import { randomBytes } from 'node:crypto';
import { channelConnectionRepositoryContract } from '@herald/domain/testing/channel-connection-repository-contract';
import { channelEndpointRepositoryContract } from '@herald/domain/testing/channel-endpoint-repository-contract';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaChannelConnectionRepository } from './prisma-channel-connection-repository';
import { PrismaChannelEndpointRepository } from './prisma-channel-endpoint-repository';
import { PrismaIntegrationRepository } from './prisma-integration-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();
const cipher = new AesGcmCredentialCipher(randomBytes(32));

const setup = async () => {
  const { prisma, pool } = database.db;
  return {
    connections: new PrismaChannelConnectionRepository(prisma, cipher, testChannelCipher),
    endpoints: new PrismaChannelEndpointRepository(prisma, testChannelCipher),
    integrations: new PrismaIntegrationRepository(prisma, cipher),
    subscribers: new PrismaSubscriberRepository(prisma, pool, testChannelCipher),
    environments: await contractEnvironments(pool),
  };
};

channelConnectionRepositoryContract('PostgreSQL', setup);
channelEndpointRepositoryContract('PostgreSQL', setup);
