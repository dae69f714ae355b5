import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, lazy, networkFailure } from './kit/provider-failure';

const sdk = lazy(async () => (await import('telnyx')).default);
const API = 'https://api.telnyx.com';

type TelnyxErrors = { errors?: Array<{ code?: string; title?: string; detail?: string }> };

/**
 * Telnyx Messaging through its official SDK (`telnyx`, messages.send): pointed at the operator's
 * endpoint with `baseURL`, its own retries off (Herald's policy retries) and the provider deadline as
 * its timeout; its APIError keeps status, body and headers. `from` (or `overrides.from`) is the
 * sending number; `messageProfileId` sends through a messaging profile instead.
 */
export class TelnyxSmsProvider implements DeliveryProvider {
  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = credentials;
    if (!apiKey) throw new ProviderError('the integration has no apiKey', false);
    if (!message.to.phone) throw new ProviderError('the subscriber has no phone number', false);
    const secrets = [apiKey];
    const Telnyx = await sdk();
    const client = new Telnyx({ apiKey: String(apiKey), baseURL: `${this.options.baseUrl ?? API}/v2`, maxRetries: 0, timeout: this.options.timeoutMs });
    const from = message.overrides.from ?? credentials.from;
    try {
      const sent = await client.messages.send({
        to: message.to.phone,
        text: message.body,
        ...(from ? { from: String(from) } : {}),
        ...(credentials.messageProfileId ? { messaging_profile_id: String(credentials.messageProfileId) } : {}),
      });
      return { providerMessageId: sent.data?.id, raw: JSON.stringify({ id: sent.data?.id, to: sent.data?.to?.map((t) => t.status) }) };
    } catch (error) {
      if (!(error instanceof Telnyx.APIError) || error.status === undefined) throw networkFailure(error, secrets);
      const first = (error.error as TelnyxErrors | undefined)?.errors?.[0];
      const reason = first ? `${first.title ?? ''}${first.detail ? `: ${first.detail}` : ''} (Telnyx error ${first.code})` : 'refused the message';
      throw httpFailure(error.status, reason, error.error, secrets, error.headers?.get('retry-after'));
    }
  }
}

export const providers = [
  defineProvider({ id: 'telnyx', through: '`telnyx` (messages.send)', create: (kit) => new TelnyxSmsProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
