import { randomUUID } from 'node:crypto';
import { digestRepositoryContract, type DigestJobSeed } from './digest-repository-contract';
import { InMemoryDigestRepository } from './in-memory-digest-repository';

digestRepositoryContract('in memory', async () => {
  const repo = new InMemoryDigestRepository();
  const ids = new Map<string, string>();
  const id = (name: string) => ids.get(name) ?? (ids.set(name, randomUUID()), ids.get(name)!);
  const digestJob = async (seed: DigestJobSeed) => {
    const notificationId = randomUUID();
    repo.notifications.set(notificationId, { transactionId: seed.transactionId, createdAt: seed.createdAt, payload: seed.payload });
    return { jobId: randomUUID(), notificationId, environmentId: id('environment'), subscriberId: id(`subscriber ${seed.subscriber}`), workflowStepId: id(`step ${seed.step}`) };
  };
  return { repo, digestJob };
});
