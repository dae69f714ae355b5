import { sendRateLimiterContract } from '@herald/domain/testing/send-rate-limiter-contract';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlSendRateLimiter } from './sql-send-rate-limiter';

const database = useTestDatabase(25);

// Two limiters on one database: two Herald processes.
sendRateLimiterContract('PostgreSQL', async () => ({ processes: [new SqlSendRateLimiter(database.db.pool), new SqlSendRateLimiter(database.db.pool)] }));
