import { signedWebhookFake } from '../testing/webhook-service-fake';

export const fake = signedWebhookFake('email-webhook', 'email', { email: 'ada@example.com' });
