import { createHash } from 'node:crypto';
import type { Agent } from 'node:http';
import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { App, Credential } from 'firebase-admin/app';
import type { Message } from 'firebase-admin/messaging';
import { defineProvider } from './kit/provider-definition';
import { endpointAgent } from './kit/endpoint-agent';
import { lazy, redact } from './kit/provider-failure';

const sdk = lazy(async () => ({ ...(await import('firebase-admin/app')), ...(await import('firebase-admin/messaging')), JWT: (await import('google-auth-library')).JWT }));

/** FCM answers for a token that will never work again: the engine removes such tokens from the subscriber. */
const INVALID_TOKEN = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token', 'messaging/invalid-argument']);
const TRANSIENT = new Set(['messaging/internal-error', 'messaging/server-unavailable', 'messaging/message-rate-exceeded', 'messaging/device-message-rate-exceeded', 'messaging/quota-exceeded', 'messaging/unknown-error', 'app/network-error', 'app/network-timeout']);

let instances = 0;
const SCOPES = ['https://www.googleapis.com/auth/cloud-platform', 'https://www.googleapis.com/auth/firebase.messaging'];
// A token request that failed for want of a network is worth another attempt, unlike a refused key.
const UNREACHABLE = /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|network/i;

type FcmError = { code?: string; message?: string; errorInfo?: { code?: string; message?: string } };

/** String values only: FCM's data map takes nothing else. */
function dataMap(data: unknown): Record<string, string> | undefined {
  if (!data || typeof data !== 'object') return undefined;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/**
 * Firebase Cloud Messaging through firebase-admin, one send per device token of the subscriber.
 * Tokens FCM calls unregistered or invalid are reported back for removal; the send succeeds when
 * any token took the message. One firebase app per service account, kept for reuse.
 */
export class FcmPushProvider implements DeliveryProvider {
  private readonly apps = new Map<string, App>();
  private readonly agent?: Agent;
  // firebase app names are global to the process: each provider instance names its own.
  private readonly instance = ++instances;

  constructor(options: { baseUrl?: string } = {}) {
    this.agent = options.baseUrl ? endpointAgent(options.baseUrl) : undefined;
  }

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const tokens = message.to.deviceTokens ?? [];
    if (!tokens.length) throw new ProviderError('no device tokens', false);
    const { getMessaging } = await sdk();
    const app = await this.app(credentials);
    const secrets = [credentials.serviceAccount];
    const o = message.overrides;
    const sound = o.sound as string | undefined;
    const base: Omit<Message, 'token'> = {
      notification: { title: String(o.title ?? message.subject ?? ''), body: message.body },
      data: dataMap(o.data ?? message.data),
      ...(sound ? { android: { notification: { sound } }, apns: { payload: { aps: { sound } } } } : {}),
    };
    const sent: string[] = [];
    const invalid: string[] = [];
    const failures: FcmError[] = [];
    for (const token of tokens) {
      try {
        sent.push(await getMessaging(app).send({ ...base, token } as Message));
      } catch (error) {
        const e = error as FcmError;
        const code = e.code ?? e.errorInfo?.code ?? '';
        if (INVALID_TOKEN.has(code)) invalid.push(token);
        else failures.push(e);
      }
    }
    const raw = redact(JSON.stringify({ sent, invalid: invalid.length, errors: failures.map((f) => ({ code: f.code, message: f.message })) }), secrets);
    if (sent.length) return { providerMessageId: sent[0], raw, invalidDeviceTokens: invalid };
    const first = failures[0];
    if (!first) throw new ProviderError('FCM reported every device token invalid', false, raw, { code: 'messaging/registration-token-not-registered', invalidDeviceTokens: invalid });
    const code = first.code ?? first.errorInfo?.code ?? 'unknown';
    const hint = code.startsWith('app/invalid-credential') || code === 'messaging/authentication-error' || code === 'messaging/mismatched-credential' ? ' (check the integration service account)' : '';
    const retryable = TRANSIENT.has(code) || (code.startsWith('app/') && UNREACHABLE.test(first.message ?? ''));
    throw new ProviderError(`FCM ${code}: ${redact(first.message, secrets)}${retryable ? '' : hint}`, retryable, raw, { code, invalidDeviceTokens: invalid });
  }

  private async app(credentials: Credentials): Promise<App> {
    const { initializeApp, JWT } = await sdk();
    const key = createHash('sha256').update(String(credentials.serviceAccount)).digest('hex');
    const existing = this.apps.get(key);
    if (existing) return existing;
    let account: { project_id: string; client_email: string; private_key: string };
    try {
      account = JSON.parse(String(credentials.serviceAccount));
    } catch {
      throw new ProviderError('the integration serviceAccount is not the service account key JSON', false);
    }
    const app = initializeApp({ credential: this.credential(account, JWT), projectId: account.project_id, httpAgent: this.agent }, `herald-fcm-${this.instance}-${key.slice(0, 16)}`);
    this.apps.set(key, app);
    return app;
  }

  /**
   * The service account's OAuth token, from google-auth-library's JWT client. firebase-admin's own
   * cert() would build the same client without the HTTP agent (so an endpoint override could not
   * reach the token request) and logs a deprecation warning for every app.
   */
  private credential(account: { client_email: string; private_key: string }, JWT: typeof import('google-auth-library').JWT): Credential {
    const jwt = new JWT({ email: account.client_email, key: account.private_key, scopes: SCOPES, transporterOptions: this.agent ? { agent: this.agent } : undefined });
    return {
      async getAccessToken() {
        const token = await jwt.authorize();
        return { access_token: token.access_token ?? '', expires_in: Math.max(0, Math.floor(((token.expiry_date ?? Date.now() + 3_600_000) - Date.now()) / 1000)) };
      },
    };
  }

  /** Frees the firebase apps (their token refresh timers). */
  async close(): Promise<void> {
    if (!this.apps.size) return;
    const { deleteApp } = await sdk();
    await Promise.all([...this.apps.values()].map((app) => deleteApp(app)));
    this.apps.clear();
  }
}

export const providers = [
  defineProvider({ id: 'fcm', through: '`firebase-admin`, one send per device token', create: (kit) => new FcmPushProvider({ baseUrl: kit.endpoint }) }),
];
