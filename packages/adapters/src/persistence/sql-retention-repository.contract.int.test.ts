import { retentionRepositoryContract } from '@herald/domain/testing/retention-repository-contract';
import { sqlRetentionFixture } from '../testing/retention-fixture';
import { useTestDatabase } from '../testing/use-test-database';

const database = useTestDatabase(10);

retentionRepositoryContract('PostgreSQL', () => sqlRetentionFixture(database.db.pool));
