import { signedWebhookFake } from '../testing/webhook-service-fake';

export const fake = signedWebhookFake('push-webhook', 'push', { deviceTokens: ['device-1'] });
