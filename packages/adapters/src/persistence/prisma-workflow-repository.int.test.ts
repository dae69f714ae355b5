import { workflowRepositoryContract } from '@herald/domain/testing/workflow-repository-contract';
import { beforeAll } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { PrismaWorkflowRepository } from './prisma-workflow-repository';

const handle = useTestDatabase();
let environments: [string, string];

beforeAll(async () => {
  const result = await new PrismaTenancyRepository(handle.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [
      { name: 'Development', slug: 'development', signingSecret: 's1' },
      { name: 'Production', slug: 'production', signingSecret: 's2' },
    ],
  });
  environments = [result.environments[0].id, result.environments[1].id];
});

workflowRepositoryContract('PostgreSQL', async () => ({ repo: new PrismaWorkflowRepository(handle.db.prisma), environments }));
