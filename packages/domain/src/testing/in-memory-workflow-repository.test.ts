import { InMemoryWorkflowRepository } from './in-memory-workflow-repository';
import { workflowRepositoryContract } from './workflow-repository-contract';

workflowRepositoryContract('in memory', async () => ({ repo: new InMemoryWorkflowRepository(), environments: ['env-a', 'env-b'] }));
