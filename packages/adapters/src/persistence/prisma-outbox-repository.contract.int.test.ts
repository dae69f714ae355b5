import type { OutboxSeed } from '@herald/domain/testing/outbox-repository-contract';
import { outboxRepositoryContract } from '@herald/domain/testing/outbox-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaOutboxRepository } from './prisma-outbox-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

/** A message row as the delivery engine writes one (messages have no foreign keys to satisfy). */
async function send(environmentId: string, subscriberId: string, seed: OutboxSeed): Promise<string> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, destination, subject, body, created_at)
     SELECT $1, gen_random_uuid(), gen_random_uuid(), s.id, $3, $4, $5, $6, $7, 'Hello', $8 FROM subscribers s WHERE s.environment_id = $1 AND s.subscriber_id = $2
     RETURNING id`,
    [environmentId, subscriberId, seed.transactionId, seed.channel, seed.providerId, JSON.stringify(seed.destination), seed.subject ?? null, seed.createdAt],
  );
  return rows[0].id;
}

outboxRepositoryContract('PostgreSQL', async () => ({
  repo: new PrismaOutboxRepository(database.db.prisma),
  subscribers: new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher),
  send,
  environments: await contractEnvironments(database.db.pool),
}));
