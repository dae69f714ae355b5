import { afterEach } from 'vitest';
import { deliveryQueueContract } from './delivery-queue-contract';
import { InMemoryDeliveryBroker, InMemoryDeliveryQueue } from './in-memory-delivery-queue';

const started: InMemoryDeliveryQueue[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((q) => q.stop()));
});

deliveryQueueContract('in memory', async () => {
  const broker = new InMemoryDeliveryBroker();
  return {
    async processes(count) {
      const queues = Array.from({ length: count }, () => new InMemoryDeliveryQueue(broker));
      started.push(...queues);
      return queues;
    },
    enqueue: async (work) => broker.enqueue(work),
  };
});
