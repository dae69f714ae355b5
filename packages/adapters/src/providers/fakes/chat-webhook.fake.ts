import { signedWebhookFake } from '../testing/webhook-service-fake';

export const fake = signedWebhookFake('chat-webhook', 'chat', { webhookUrl: 'https://chat.example.com/ada' });
