import { randomUUID } from 'node:crypto';
import type { DeliveryProvider, ProviderReceipt } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';

/**
 * The built-in development sinks (`<service>-email`, `<service>-sms`): nothing leaves the machine.
 * The message row the engine stores for the step IS the outbox entry, readable through the API.
 */
export class OutboxProvider implements DeliveryProvider {
  async send(): Promise<ProviderReceipt> {
    return { providerMessageId: `outbox-${randomUUID()}` };
  }
}

export const providers = [
  defineProvider({ id: 'svc-email', through: 'the development outbox (nothing leaves the machine)', create: () => new OutboxProvider() }),
  defineProvider({ id: 'svc-sms', through: 'the development outbox (nothing leaves the machine)', create: () => new OutboxProvider() }),
];
