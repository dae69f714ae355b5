import { providerRegistryContract } from '@herald/domain/testing/provider-registry-contract';
import { afterAll } from 'vitest';
import { GuardedHttpClient } from '../http/guarded-http-client';
import { StaticProviderRegistry } from './static-provider-registry';

const registries: StaticProviderRegistry[] = [];
afterAll(async () => {
  for (const registry of registries) await registry.close();
});

providerRegistryContract('static', async () => {
  const registry = new StaticProviderRegistry('herald', new GuardedHttpClient(false));
  registries.push(registry);
  return { registry, known: ['herald-email', 'herald-sms', 'sendgrid', 'resend', 'nodemailer', 'twilio', 'generic-sms', 'slack', 'fcm', 'chat-webhook', 'discord'] };
});
