import { chatWebhookFake } from '../testing/chat-webhook-fake';

/** Teams workflow webhooks take an Adaptive Card, answer 202 with no body, and give no message id. */
export const fake = chatWebhookFake({
  id: 'msteams',
  accept: () => ({ status: 202 }),
  unknown: { status: 404, body: { error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' } } },
  noMessageId: 'Teams workflow webhooks answer 202 with no body',
  text: (r) => r.json.attachments[0].content.body[0].text,
  overrides: { given: {}, wire: { body: 'Order A-1 is on its way' } },
});
