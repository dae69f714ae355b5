import { randomUUID } from 'node:crypto';
import { InMemoryPreferenceRepository } from './in-memory-preference-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { InMemoryWorkflowRepository } from './in-memory-workflow-repository';
import { preferenceRepositoryContract } from './preference-repository-contract';

preferenceRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  return {
    preferences: new InMemoryPreferenceRepository(store),
    subscribers: new InMemorySubscriberRepository(store),
    workflows: new InMemoryWorkflowRepository(store),
    environments: [randomUUID(), randomUUID()],
  };
});
