import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { pushFields } from './kit/push-fields';
import { requireCredentials } from './kit/require-credentials';

const API = 'https://pushpad.xyz';

type Created = { id?: number | string; scheduled?: number; uids?: string[] };

/**
 * Pushpad web push (POST /api/v1/projects/<project>/notifications) through Herald's guarded client:
 * the `pushpad` package has no base-URL option and no timeout. The subscriber's device tokens are
 * Pushpad uids; the answer lists the uids it reached, so the others are removed like stale tokens.
 * `apiKey` is the auth token, `applicationId` the project id. Web push has no sound or numeric badge
 * (Pushpad's `badge_url` is an image), so those overrides have no place; `data` goes as `custom_data`.
 */
export class PushpadPushProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, applicationId } = requireCredentials(credentials, ['apiKey', 'applicationId']);
    const p = pushFields(message);
    if (!p.tokens.length) throw new ProviderError('no device tokens (Pushpad uids)', false);
    const o = message.overrides;
    const answer = await this.call({
      url: this.url(API, `/api/v1/projects/${encodeURIComponent(applicationId)}/notifications`),
      headers: { authorization: `Token token="${apiKey}"` },
      json: {
        notification: {
          title: p.title,
          body: p.body,
          ...(typeof o.targetUrl === 'string' ? { target_url: o.targetUrl } : {}),
          ...(p.data ? { custom_data: JSON.stringify(p.data) } : {}),
        },
        uids: p.tokens,
      },
      secrets: [apiKey],
      reason: (body: { error?: string; errors?: unknown }) => body.error ?? (body.errors ? JSON.stringify(body.errors) : undefined),
    });
    const created = answer.body as Created;
    const reached = new Set(created.uids ?? []);
    const invalid = p.tokens.filter((uid) => !reached.has(uid));
    if (created.id !== undefined && reached.size) return { providerMessageId: String(created.id), raw: answer.raw, invalidDeviceTokens: invalid };
    throw new ProviderError('Pushpad: none of the uids has a subscription', false, answer.raw, { code: 'no_subscription', invalidDeviceTokens: invalid });
  }
}

export const providers = [
  defineProvider({ id: 'pushpad', through: 'HTTP API (POST /api/v1/projects/<id>/notifications)', create: (kit) => new PushpadPushProvider(kit) }),
];
