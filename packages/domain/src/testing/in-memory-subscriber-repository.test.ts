import { randomUUID } from 'node:crypto';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { subscriberRepositoryContract } from './subscriber-repository-contract';

subscriberRepositoryContract('in memory', async () => ({ repo: new InMemorySubscriberRepository(), environments: [randomUUID(), randomUUID()] }));
