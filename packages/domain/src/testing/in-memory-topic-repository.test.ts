import { randomUUID } from 'node:crypto';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { InMemoryTopicRepository } from './in-memory-topic-repository';
import { topicRepositoryContract } from './topic-repository-contract';

topicRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  return { topics: new InMemoryTopicRepository(store), subscribers: new InMemorySubscriberRepository(store), environments: [randomUUID(), randomUUID()] };
});
