import { webhookOutboxContract } from '@herald/domain/testing/webhook-outbox-contract';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint-repository';
import { SqlWebhookOutbox } from './sql-webhook-outbox';

const database = useTestDatabase();
const cipher = new AesGcmCredentialCipher(Buffer.alloc(32, 7));

webhookOutboxContract('PostgreSQL', async () => {
  // Claims are not per environment: each test starts from an empty outbox, as the double does.
  await database.db.pool.query('TRUNCATE webhook_endpoints, webhook_events, webhook_deliveries, webhook_attempts');
  return {
    endpoints: new SqlWebhookEndpointRepository(database.db.pool, cipher),
    outbox: new SqlWebhookOutbox(database.db.pool, cipher),
    environments: await contractEnvironments(database.db.pool),
  };
});
