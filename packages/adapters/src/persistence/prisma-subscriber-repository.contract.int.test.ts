import { subscriberRepositoryContract } from '@herald/domain/testing/subscriber-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

subscriberRepositoryContract('PostgreSQL', async () => ({
  repo: new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher),
  environments: await contractEnvironments(database.db.pool),
}));
