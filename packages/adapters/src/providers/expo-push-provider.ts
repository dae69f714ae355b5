import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';
import { pushFields } from './kit/push-fields';

const API = 'https://exp.host';

type Ticket = { status: 'ok'; id: string } | { status: 'error'; message?: string; details?: { error?: string } };

// Ticket errors no retry will change; DeviceNotRegistered also removes the token from the subscriber.
const PERMANENT = new Set(['DeviceNotRegistered', 'InvalidCredentials', 'MessageTooBig', 'InvalidProviderToken', 'DeveloperError']);

/**
 * Expo push (POST /--/api/v2/push/send, one message per device token in one request) through Herald's
 * guarded client: `expo-server-sdk` takes its host only from the process-wide EXPO_BASE_URL (no
 * per-client endpoint) and retries 429s itself, dropping their Retry-After. `apiKey` is the
 * project's access token (Expo's enhanced push security), sent as a bearer token.
 */
export class ExpoPushProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const p = pushFields(message);
    if (!p.tokens.length) throw new ProviderError('no device tokens', false);
    const secrets = [credentials.apiKey];
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/--/api/v2/push/send`,
      headers: credentials.apiKey ? { authorization: `Bearer ${credentials.apiKey}` } : {},
      json: p.tokens.map((to) => ({
        to,
        title: p.title,
        body: p.body,
        ...(p.data ? { data: p.data } : {}),
        ...(p.sound ? { sound: p.sound } : {}),
        ...(p.badge !== undefined ? { badge: p.badge } : {}),
      })),
      secrets,
      reason: (body: { errors?: Array<{ code?: string; message?: string }> }) => body.errors?.map((e) => `${e.code}: ${e.message}`).join('; '),
    });
    const tickets = ((answer.body as { data?: Ticket[] }).data ?? []) as Ticket[];
    const invalid = p.tokens.filter((_, i) => tickets[i]?.status === 'error' && (tickets[i] as { details?: { error?: string } }).details?.error === 'DeviceNotRegistered');
    const sent = tickets.find((t): t is Extract<Ticket, { status: 'ok' }> => t.status === 'ok');
    if (sent) return { providerMessageId: sent.id, raw: answer.raw, invalidDeviceTokens: invalid };
    const failed = tickets.find((t) => t.status === 'error') as Extract<Ticket, { status: 'error' }> | undefined;
    const code = failed?.details?.error ?? 'NoTicket';
    throw new ProviderError(`Expo ${code}: ${failed?.message ?? 'no push ticket for the message'}`, !PERMANENT.has(code), answer.raw, { code, invalidDeviceTokens: invalid });
  }
}

export const providers = [
  defineProvider({ id: 'expo', through: 'HTTP API (POST /--/api/v2/push/send)', create: (kit) => new ExpoPushProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
