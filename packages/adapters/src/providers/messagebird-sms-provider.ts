import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://rest.messagebird.com';

type Errors = { errors?: Array<{ code?: number; description?: string; parameter?: string | null }> };

/**
 * MessageBird SMS (POST /messages, `Authorization: AccessKey`), through Herald's guarded client: the
 * `messagebird` SDK is no longer kept and takes no endpoint. Recipients are MSISDNs without the `+`;
 * the transaction id goes as the message's `reference`.
 */
export class MessageBirdSmsProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accessKey } = requireCredentials(credentials, ['accessKey']);
    const sms = smsFields(message, credentials);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/messages`,
      headers: { authorization: `AccessKey ${accessKey}` },
      json: { originator: sms.from, recipients: [sms.to.replace(/^\+/, '')], body: sms.text, reference: message.transactionId },
      secrets: [accessKey],
      reason: (body: Errors) => body.errors?.map((e) => `${e.description} (MessageBird error ${e.code})`).join('; '),
    });
    return { providerMessageId: (answer.body as { id?: string }).id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'messagebird', through: 'HTTP API (POST /messages)', create: (kit) => new MessageBirdSmsProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
