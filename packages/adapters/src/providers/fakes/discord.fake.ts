import { chatWebhookFake } from '../testing/chat-webhook-fake';

/** Discord: with `?wait=true` the webhook answers the message object, whose id is the message id. */
export const fake = chatWebhookFake({
  id: 'discord',
  accept: (id) => ({ status: 200, body: { id, type: 0, content: 'Order A-1 is on its way', channel_id: '42' } }),
  unknown: { status: 404, body: { message: 'Unknown Webhook', code: 10015 } },
  text: (r) => r.json.content,
  overrides: { given: { username: 'Shop' }, wire: { body: 'Order A-1 is on its way', extra: { username: 'Shop' } } },
});
