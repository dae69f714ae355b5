import { randomUUID } from 'node:crypto';
import { InMemoryOutboxRepository } from './in-memory-outbox-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { outboxRepositoryContract, type OutboxSeed } from './outbox-repository-contract';

outboxRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  const repo = new InMemoryOutboxRepository(store);
  const send = async (environmentId: string, subscriberId: string, seed: OutboxSeed) =>
    repo.add({ ...seed, environmentId, subject: seed.subject ?? null, body: 'Hello', subscriberRowId: store.subscriber(environmentId, subscriberId)!.id, status: 'sent' });
  return { repo, subscribers: new InMemorySubscriberRepository(store), send, environments: [randomUUID(), randomUUID()] };
});
