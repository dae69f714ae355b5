import { preferenceRepositoryContract } from '@herald/domain/testing/preference-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaPreferenceRepository } from './prisma-preference-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaWorkflowRepository } from './prisma-workflow-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

preferenceRepositoryContract('PostgreSQL', async () => {
  const { prisma, pool } = database.db;
  return {
    preferences: new PrismaPreferenceRepository(prisma, pool),
    subscribers: new PrismaSubscriberRepository(prisma, pool, testChannelCipher),
    workflows: new PrismaWorkflowRepository(prisma),
    environments: await contractEnvironments(pool),
  };
});
