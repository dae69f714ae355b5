import { randomUUID } from 'node:crypto';
import { activityRepositoryContract, type ActivitySeed } from './activity-repository-contract';
import { InMemoryActivityRepository } from './in-memory-activity-repository';
import { InMemoryStore } from './in-memory-store';
import { InMemorySubscriberRepository } from './in-memory-subscriber-repository';
import { InMemoryTopicRepository } from './in-memory-topic-repository';
import { InMemoryWorkflowRepository } from './in-memory-workflow-repository';

activityRepositoryContract('in memory', async () => {
  const store = new InMemoryStore();
  const repo = new InMemoryActivityRepository(store);
  const trigger = async (environmentId: string, seed: ActivitySeed) => {
    const workflow = [...store.workflows.values()].find((w) => w.environmentId === environmentId && w.workflowId === seed.workflow)!;
    const subscription = seed.subscription && store.subscriptions.find((s) => s.environmentId === environmentId && s.identifier === seed.subscription!.identifier)!;
    if (seed.fanout) repo.addFanout(environmentId, seed.transactionId, { topicKeys: seed.fanout.topicKeys, lanes: seed.fanout.lanes ?? null });
    return seed.recipients.map((subscriberId) =>
      repo.add({
        environmentId,
        transactionId: seed.transactionId,
        workflowId: workflow.id,
        subscriberRowId: store.subscriber(environmentId, subscriberId)!.id,
        channels: seed.channels ?? [],
        payload: seed.payload ?? {},
        severity: seed.severity ?? 'none',
        contextKeys: seed.contextKeys ?? [],
        topic: subscription ? { id: subscription.topicId, key: seed.subscription!.topicKey, subscriptionId: subscription.id } : null,
        createdAt: seed.createdAt,
        stepStatuses: seed.stepStatuses,
      }),
    );
  };
  return {
    repo,
    subscribers: new InMemorySubscriberRepository(store),
    workflows: new InMemoryWorkflowRepository(store),
    topics: new InMemoryTopicRepository(store),
    trigger,
    environments: [randomUUID(), randomUUID()],
  };
});
