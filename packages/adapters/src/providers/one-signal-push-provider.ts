import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, isNetworkError, lazy, networkFailure, redact } from './kit/provider-failure';
import { pushFields } from './kit/push-fields';

const sdk = lazy(() => import('@onesignal/node-onesignal'));
const API = 'https://api.onesignal.com';

type Answer = { id?: string; errors?: string[] | { invalid_player_ids?: string[]; invalid_subscription_ids?: string[] } };

/** The subscription ids a send answer calls invalid; all of them when OneSignal says none is subscribed. */
function invalidIds(answer: Answer, tokens: string[]): string[] {
  const errors = answer.errors;
  if (Array.isArray(errors)) return errors.some((e) => /not subscribed/i.test(e)) ? tokens : [];
  return [...(errors?.invalid_subscription_ids ?? []), ...(errors?.invalid_player_ids ?? [])];
}

/**
 * OneSignal push through its official SDK (`@onesignal/node-onesignal`, createNotification to the
 * subscriber's device tokens as subscription ids), pointed at the operator's endpoint through its
 * `baseServer` option; its ApiException keeps the answer's status and headers, so Retry-After holds.
 * Credentials: `applicationId` the app id, `apiKey` the app's REST API key.
 */
export class OneSignalPushProvider implements DeliveryProvider {
  constructor(private readonly options: { baseUrl?: string } = {}) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { applicationId, apiKey } = credentials;
    if (!applicationId || !apiKey) throw new ProviderError('the integration has no applicationId or apiKey', false);
    const p = pushFields(message);
    if (!p.tokens.length) throw new ProviderError('no device tokens', false);
    const secrets = [apiKey];
    const onesignal = await sdk();
    const client = new onesignal.DefaultApi(
      onesignal.createConfiguration({ restApiKey: String(apiKey), baseServer: new onesignal.ServerConfiguration(this.options.baseUrl ?? API, {}) }),
    );
    let answer: Answer;
    try {
      answer = await client.createNotification({
        app_id: String(applicationId),
        target_channel: 'push',
        include_subscription_ids: p.tokens,
        headings: { en: p.title },
        contents: { en: p.body },
        ...(p.data ? { data: p.data } : {}),
        ...(p.sound ? { ios_sound: p.sound } : {}),
        ...(p.badge !== undefined ? { ios_badge_type: 'SetTo', ios_badge_count: p.badge } : {}),
        idempotency_key: message.idempotencyKey,
      } as Parameters<typeof client.createNotification>[0]);
    } catch (error) {
      const e = error as { code?: number; body?: unknown; headers?: Record<string, string>; message?: string };
      if (!(error instanceof onesignal.ApiException) || isNetworkError(error)) throw networkFailure(error, secrets);
      const reason = (e.body as { errors?: unknown })?.errors;
      throw httpFailure(Number(e.code), `OneSignal: ${redact([reason].flat().join('; ') || 'refused the notification', secrets)}`, e.body, secrets, e.headers?.['retry-after']);
    }
    const invalid = invalidIds(answer, p.tokens);
    const raw = redact(JSON.stringify(answer), secrets);
    if (answer.id) return { providerMessageId: answer.id, raw, invalidDeviceTokens: invalid };
    throw new ProviderError('OneSignal: none of the device tokens is a subscribed subscription', false, raw, { code: 'not_subscribed', invalidDeviceTokens: invalid });
  }
}

export const providers = [
  defineProvider({ id: 'one-signal', through: '`@onesignal/node-onesignal` (createNotification)', create: (kit) => new OneSignalPushProvider({ baseUrl: kit.endpoint }) }),
];
