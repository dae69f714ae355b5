import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { defineProvider } from './kit/provider-definition';
import { TwilioReceiptReader } from '../receipts/twilio-receipt-reader';
import { httpFailure, isNetworkError, lazy, networkFailure } from './kit/provider-failure';

// Loaded on first use: the SDK takes seconds to import, and most installations never send SMS.
const sdk = lazy(async () => {
  const { default: twilio } = await import('twilio');
  /**
   * Twilio's HTTP client (the SDK's documented httpClient hook), sending every request to `baseUrl`
   * when set, and turning a 429 into an error that keeps its Retry-After (the SDK's RestException
   * carries no headers).
   */
  class HeraldRequestClient extends twilio.RequestClient {
    constructor(
      private readonly baseUrl: string | undefined,
      timeout: number,
    ) {
      super({ timeout });
    }

    override async request<TData>(opts: RequestClient.RequestOptions<TData>) {
      const url = new URL(opts.uri);
      const response = await super.request<TData>({ ...opts, uri: this.baseUrl ? `${this.baseUrl}${url.pathname}${url.search}` : opts.uri });
      if (response.statusCode === 429) {
        const body = (typeof response.body === 'string' ? JSON.parse(response.body || '{}') : response.body) as { code?: number; message?: string };
        throw Object.assign(new Error(body.message ?? 'Too Many Requests'), { status: 429, code: body.code, retryAfter: response.headers['retry-after'] });
      }
      return response;
    }
  }
  return { twilio, HeraldRequestClient };
});

/** Twilio Programmable Messaging through the official SDK; `baseUrl` (operator setting) points it elsewhere. */
export class TwilioSmsProvider implements DeliveryProvider {
  constructor(private readonly options: { baseUrl?: string; timeoutMs?: number } = {}) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accountSid, token } = credentials;
    if (!accountSid || !token) throw new ProviderError('the integration has no accountSid or token', false);
    const secrets = [token];
    const { twilio, HeraldRequestClient } = await sdk();
    const client = twilio(accountSid, token, {
      autoRetry: false,
      timeout: this.options.timeoutMs ?? 15_000,
      httpClient: new HeraldRequestClient(this.options.baseUrl, this.options.timeoutMs ?? 15_000),
    });
    try {
      const sent = await client.messages.create({ body: message.body, from: String(message.overrides.from ?? credentials.from), to: message.to.phone! });
      return { providerMessageId: sent.sid, raw: JSON.stringify({ sid: sent.sid, status: sent.status }) };
    } catch (error) {
      const e = error as { status?: number; code?: number; message?: string; moreInfo?: string; retryAfter?: string };
      if (typeof e.status !== 'number' || isNetworkError(e)) throw networkFailure(e, secrets);
      throw httpFailure(e.status, `${e.message}${e.code ? ` (Twilio error ${e.code})` : ''}`, { code: e.code, message: e.message, moreInfo: e.moreInfo }, secrets, e.retryAfter);
    }
  }
}

export const providers = [
  defineProvider({ id: 'twilio', through: '`twilio`', create: (kit) => new TwilioSmsProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }), receipts: () => new TwilioReceiptReader() }),
];
