import { subscriberRepositoryContract } from '@herald/domain/testing/subscriber-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';

const database = useTestDatabase();

subscriberRepositoryContract('PostgreSQL', async () => ({
  repo: new PrismaSubscriberRepository(database.db.prisma, database.db.pool),
  environments: await contractEnvironments(database.db.pool),
}));
