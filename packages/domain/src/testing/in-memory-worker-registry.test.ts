import { randomUUID } from 'node:crypto';
import { InMemoryJobRepository } from './in-memory-job-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { InMemoryWorkerCluster, InMemoryWorkerRegistry } from './in-memory-worker-registry';
import { InMemoryWorkflowRepository } from './in-memory-workflow-repository';
import { workerRegistryContract, type WorkerProcess } from './worker-registry-contract';
import { draft } from './workflow-repository-contract';

workerRegistryContract('in memory', async () => {
  const store = new InMemoryStore();
  const jobs = new InMemoryJobRepository(store);
  const cluster = new InMemoryWorkerCluster();
  const workflow = await new InMemoryWorkflowRepository(store).create('env', draft('mail', { steps: [{ stepId: 'mail', name: 'mail', type: 'email', controlValues: {}, skip: null }] }));
  const subscriber = (await new InMemorySubscriberRepository(store).insert('env', { subscriberId: 'ada' }))!;
  const registries = new Map<WorkerProcess, InMemoryWorkerRegistry>();
  return {
    async process() {
      const registry = new InMemoryWorkerRegistry(cluster, jobs);
      await registry.join();
      const process = { registry, jobs: jobs.forWorker(registry.workerId) };
      registries.set(process, registry);
      return process;
    },
    crashed: async (process) => registries.get(process)!.crash(),
    leasedWork: async () =>
      jobs.notify({ environmentId: 'env', workflowId: workflow.id, subscriberRowId: subscriber.id, transactionId: randomUUID(), payload: {}, overrides: {}, contextKeys: [] }),
  };
});
