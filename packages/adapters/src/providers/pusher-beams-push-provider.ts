import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { pushFields } from './kit/push-fields';
import { requireCredentials } from './kit/require-credentials';

type BeamsError = { error?: string; description?: string };

/**
 * Pusher Beams publish to users (POST /publish_api/v1/instances/<instanceId>/publishes/users) through
 * Herald's guarded client: `@pusher/push-notifications-server` builds its https URL from the instance
 * id alone, so it cannot be pointed at a sandbox or a plain-HTTP fake. The subscriber's device tokens
 * are Beams user ids (what the app passed to `setUserId`); `secretKey` is the instance's primary key.
 * One publish carries the notification for APNs, FCM and web push, as Beams fans it out per platform.
 */
export class PusherBeamsPushProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { instanceId, secretKey } = requireCredentials(credentials, ['instanceId', 'secretKey']);
    const p = pushFields(message);
    if (!p.tokens.length) throw new ProviderError('no device tokens (Beams user ids)', false);
    const instance = encodeURIComponent(instanceId);
    const notification = { title: p.title, body: p.body };
    try {
      const answer = await this.call({
        url: this.url(`https://${instance}.pushnotifications.pusher.com`, `/publish_api/v1/instances/${instance}/publishes/users`),
        headers: { authorization: `Bearer ${secretKey}` },
        json: {
          users: p.tokens,
          apns: { aps: { alert: notification, ...(p.sound ? { sound: p.sound } : {}), ...(p.badge !== undefined ? { badge: p.badge } : {}) }, ...(p.data ? { data: p.data } : {}) },
          fcm: { notification: { ...notification, ...(p.sound ? { sound: p.sound } : {}) }, ...(p.data ? { data: p.data } : {}) },
          web: { notification, ...(p.data ? { data: p.data } : {}) },
        },
        secrets: [secretKey],
        reason: (body: BeamsError) => [body.error, body.description].filter(Boolean).join(': '),
      });
      return { providerMessageId: (answer.body as { publishId?: string }).publishId, raw: answer.raw };
    } catch (error) {
      // Beams refuses a publish naming the user ids it will never accept; those are removed like stale tokens.
      if (!(error instanceof ProviderError) || error.retryable || !/^answered 4(00|22)/.test(error.message)) throw error;
      const invalid = p.tokens.filter((token) => error.message.includes(token));
      throw invalid.length ? new ProviderError(error.message, false, error.raw, { ...error.extra, invalidDeviceTokens: invalid }) : error;
    }
  }
}

export const providers = [
  defineProvider({
    id: 'pusher-beams',
    through: 'HTTP API (POST /publish_api/v1/instances/<id>/publishes/users)',
    create: (kit) => new PusherBeamsPushProvider(kit),
  }),
];
