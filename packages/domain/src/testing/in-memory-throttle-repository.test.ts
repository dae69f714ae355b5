import { InMemoryThrottleRepository } from './in-memory-throttle-repository';
import { throttleRepositoryContract } from './throttle-repository-contract';

throttleRepositoryContract('in memory', async () => new InMemoryThrottleRepository());
