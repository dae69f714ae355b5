import { randomUUID } from 'node:crypto';
import { InMemoryJobRepository } from './in-memory-job-repository';
import { InMemoryPreferenceRepository } from './in-memory-preference-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { InMemoryWorkflowRepository } from './in-memory-workflow-repository';
import { jobRepositoryContract, type NotificationSeed } from './job-repository-contract';

jobRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  const jobs = new InMemoryJobRepository(store);
  const notify = async (environmentId: string, seed: NotificationSeed) =>
    jobs.notify({
      environmentId,
      workflowId: seed.workflowId,
      subscriberRowId: store.subscriber(environmentId, seed.subscriberId)!.id,
      transactionId: seed.transactionId,
      payload: seed.payload,
      overrides: seed.overrides ?? {},
      contextKeys: seed.contextKeys ?? [],
    });
  return {
    jobs,
    workflows: new InMemoryWorkflowRepository(store),
    subscribers: new InMemorySubscriberRepository(store),
    preferences: new InMemoryPreferenceRepository(store),
    notify,
    readMessage: async (jobId: string) => jobs.readMessage(jobId),
    environments: [randomUUID(), randomUUID()],
  };
});
