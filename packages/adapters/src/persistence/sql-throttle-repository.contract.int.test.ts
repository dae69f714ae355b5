import { throttleRepositoryContract } from '@herald/domain/testing/throttle-repository-contract';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlThrottleRepository } from './sql-throttle-repository';

const database = useTestDatabase(25);

throttleRepositoryContract('PostgreSQL', async () => new SqlThrottleRepository(database.db.pool));
