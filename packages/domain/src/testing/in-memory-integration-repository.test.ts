import { randomUUID } from 'node:crypto';
import { InMemoryIntegrationRepository } from './in-memory-integration-repository';
import { integrationRepositoryContract } from './integration-repository-contract';

integrationRepositoryContract('in memory', async () => ({ repo: new InMemoryIntegrationRepository(), environments: [randomUUID(), randomUUID()] }));
