import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://rest.messagebird.com';

type Errors = { errors?: Array<{ code?: number; description?: string; parameter?: string | null }> };

/**
 * MessageBird SMS (POST /messages, `Authorization: AccessKey`), through Herald's guarded client: the
 * `messagebird` SDK (last released 2024) sets its host inside each request, with no client option.
 * Recipients are MSISDNs without the `+`; the transaction id goes as the message's `reference`.
 */
export class MessageBirdSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accessKey } = requireCredentials(credentials, ['accessKey']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/messages'),
      headers: { authorization: `AccessKey ${accessKey}` },
      json: { originator: sms.from, recipients: [sms.to.replace(/^\+/, '')], body: sms.text, reference: message.transactionId },
      secrets: [accessKey],
      reason: (body: Errors) => body.errors?.map((e) => `${e.description} (MessageBird error ${e.code})`).join('; '),
    });
    return { providerMessageId: (answer.body as { id?: string }).id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'messagebird', through: 'HTTP API (POST /messages)', create: (kit) => new MessageBirdSmsProvider(kit) }),
];
