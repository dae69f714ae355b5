import type { DeliveryProvider, HttpClient, ProviderRegistry } from '@herald/domain';
import { OutboxProvider } from './outbox-provider';
import { WebhookProvider } from './webhook-provider';

/** The providers this build can send through, by providerId (the built-in sinks carry the service name). */
export class StaticProviderRegistry implements ProviderRegistry {
  private readonly providers = new Map<string, DeliveryProvider>();

  constructor(serviceName: string, http: HttpClient) {
    const outbox = new OutboxProvider();
    const webhook = new WebhookProvider(http, serviceName);
    this.providers.set(`${serviceName}-email`, outbox);
    this.providers.set(`${serviceName}-sms`, outbox);
    for (const id of ['email-webhook', 'chat-webhook', 'push-webhook', 'generic-sms']) this.providers.set(id, webhook);
  }

  get(providerId: string): DeliveryProvider | null {
    return this.providers.get(providerId) ?? null;
  }
}
