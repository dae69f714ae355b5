import { InMemoryRetentionRepository } from './in-memory-retention-repository';
import { retentionRepositoryContract } from './retention-repository-contract';

retentionRepositoryContract('in memory', async () => {
  const repo = new InMemoryRetentionRepository();
  return {
    repo,
    environments: ['env-a', 'env-b'],
    seed: (rows) => repo.seed(rows),
    seedWebhookEvents: (rows) => repo.seedWebhookEvents(rows),
    settleWebhookEvent: (id) => repo.settleWebhookEvent(id),
    settle: (id) => repo.settle(id),
    left: (environmentId) => repo.left(environmentId),
    has: (id) => repo.has(id),
  };
});
