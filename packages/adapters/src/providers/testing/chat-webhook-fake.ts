import type { ProviderFake } from './provider-fake';
import { startHttpService } from './http-service-fake';
import type { FakeAnswer, RecordedRequest } from '../../../../../test/support/http-fake';

const TOKEN = 'hook-contract-token-1';

export interface ChatWebhookService {
  id: 'discord' | 'msteams' | 'mattermost';
  /** The service's answer to a message it took (Discord's message object with wait=true; Teams and Mattermost give no id). */
  accept(id: string): FakeAnswer;
  /** Its answer for a webhook whose token is wrong or deleted. */
  unknown: FakeAnswer;
  text(request: RecordedRequest): string;
  overrides: ProviderFake['overrides'];
  /** Why the service gives no message id, when it gives none. */
  noMessageId?: string;
}

/** An incoming-webhook service: the URL (its token) is both the destination and the credential. */
export function chatWebhookFake(service: ChatWebhookService): ProviderFake {
  const hook = (url: string, token = TOKEN) => ({ to: { webhookUrl: `${url}/hooks/${service.id}/${token}` }, credentials: {} });
  return {
    id: service.id,
    channel: 'chat',
    overrides: service.overrides,
    unsupported: { messageId: service.noMessageId, invalidRecipient: 'the webhook URL is the recipient and the credential: a wrong one is the bad-credentials case' },
    start: () =>
      startHttpService(
        {
          path: new RegExp(`^/hooks/${service.id}/`),
          prefix: `/hooks/${service.id}/`,
          authorized: (r) => r.path.split('?')[0].endsWith(`/${TOKEN}`),
          accept: (_r, id) => service.accept(id),
          unauthorized: () => service.unknown,
          invalidRecipient: () => service.unknown,
          serverError: { status: 502, body: { message: 'Bad Gateway' } },
          rateLimited: { status: 429, headers: { 'retry-after': '7' }, body: { message: 'You are being rate limited.', retry_after: 7, global: false } },
          wire: (r) => ({ to: [r.path], body: service.text(r), extra: { username: r.json.username } }),
        },
        { target: (url) => hook(url), badCredentials: (url) => hook(url, 'hook-wrong-token-9'), invalidRecipient: (url) => hook(url) },
      ),
  };
}
