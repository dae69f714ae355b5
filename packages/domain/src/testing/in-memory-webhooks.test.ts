import { randomUUID } from 'node:crypto';
import { InMemoryWebhookEndpointRepository, InMemoryWebhookOutbox, InMemoryWebhookStore } from './in-memory-webhooks';
import { webhookOutboxContract } from './webhook-outbox-contract';

webhookOutboxContract('in memory', async () => {
  const store = new InMemoryWebhookStore();
  return { endpoints: new InMemoryWebhookEndpointRepository(store), outbox: new InMemoryWebhookOutbox(store), environments: [randomUUID(), randomUUID()] };
});
