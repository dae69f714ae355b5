import { randomUUID } from 'node:crypto';
import type { InboxOwner } from '../entities/inbox';
import type { InboxSeed } from './inbox-contract-fixture';
import { inboxRepositoryContract } from './inbox-repository-contract';
import { InMemoryInboxRepository } from './in-memory-inbox-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';

inboxRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  const repo = new InMemoryInboxRepository(undefined, store);
  const deliver = async (owner: InboxOwner, seed: InboxSeed) => {
    const [id, jobId] = [randomUUID(), randomUUID()];
    repo.add(
      {
        id,
        transactionId: `tx-${id}`,
        subject: null,
        body: 'Hello',
        to: owner,
        isRead: false,
        isSeen: false,
        isArchived: false,
        isSnoozed: seed.snoozedUntil !== undefined,
        snoozedUntil: seed.snoozedUntil ?? null,
        readAt: null,
        firstSeenAt: null,
        archivedAt: null,
        deliveredAt: [],
        createdAt: seed.createdAt,
        avatar: null,
        primaryAction: seed.primaryAction ?? null,
        secondaryAction: null,
        channelType: seed.channel ?? 'in_app',
        tags: seed.tags ?? [],
        data: seed.data ?? null,
        redirect: null,
        workflow: null,
        severity: seed.severity ?? 'none',
        contextKeys: [...(seed.contextKeys ?? [])].sort(),
      },
      jobId,
    );
    return { id, jobId };
  };
  return { repo, subscribers: new InMemorySubscriberRepository(store), deliver, environments: [randomUUID(), randomUUID()] };
});
