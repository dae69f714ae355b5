import { InMemoryTenancyRepository } from './in-memory-tenancy-repository';
import { tenancyRepositoryContract } from './tenancy-repository-contract';

tenancyRepositoryContract('in memory', async () => new InMemoryTenancyRepository());
