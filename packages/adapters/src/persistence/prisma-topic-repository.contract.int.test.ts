import { topicRepositoryContract } from '@herald/domain/testing/topic-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTopicRepository } from './prisma-topic-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

topicRepositoryContract('PostgreSQL', async () => ({
  topics: new PrismaTopicRepository(database.db.prisma, database.db.pool),
  subscribers: new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher),
  environments: await contractEnvironments(database.db.pool),
}));
