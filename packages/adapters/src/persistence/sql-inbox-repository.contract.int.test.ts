import type { InboxOwner } from '@herald/domain';
import type { InboxSeed } from '@herald/domain/testing/inbox-contract-fixture';
import { inboxRepositoryContract } from '@herald/domain/testing/inbox-repository-contract';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { SqlInboxRepository } from './sql-inbox-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();

/** A message row as the delivery engine writes one (messages have no foreign keys to satisfy). */
async function deliver(owner: InboxOwner, seed: InboxSeed) {
  const { rows } = await database.db.pool.query<{ id: string; job_id: string }>(
    `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, body, created_at,
       severity, tags, data, context_keys, primary_action, is_snoozed, snoozed_until)
     VALUES ($1, gen_random_uuid(), gen_random_uuid(), $2, 'tx', $3, 'Hello', $4, $5, $6, $7, $8, $9, $10::timestamptz IS NOT NULL, $10::timestamptz)
     RETURNING id, job_id`,
    [
      owner.environmentId,
      owner.id,
      seed.channel ?? 'in_app',
      seed.createdAt,
      seed.severity ?? 'none',
      seed.tags ?? [],
      seed.data === undefined ? null : JSON.stringify(seed.data),
      [...(seed.contextKeys ?? [])].sort(),
      seed.primaryAction ? JSON.stringify(seed.primaryAction) : null,
      seed.snoozedUntil ?? null,
    ],
  );
  return { id: rows[0].id, jobId: rows[0].job_id };
}

inboxRepositoryContract('PostgreSQL', async () => ({
  repo: new SqlInboxRepository(database.db.pool),
  subscribers: new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher),
  deliver,
  environments: await contractEnvironments(database.db.pool),
}));
