import { chatWebhookFake } from '../testing/chat-webhook-fake';

/** Mattermost incoming webhooks answer `ok` and give no message id. */
export const fake = chatWebhookFake({
  id: 'mattermost',
  accept: () => ({ status: 200, body: 'ok' }),
  unknown: { status: 400, body: { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 } },
  noMessageId: 'Mattermost answers a bare ok',
  text: (r) => r.json.text,
  overrides: { given: { username: 'Shop' }, wire: { body: 'Order A-1 is on its way', extra: { username: 'Shop' } } },
});
