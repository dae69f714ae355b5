import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

// Termii shows each account its own base URL; an operator sets it in HERALD_PROVIDER_ENDPOINTS.
const API = 'https://api.ng.termii.com';

/**
 * Termii Messaging (POST /api/sms/send, JSON with `api_key` in the body) through Herald's guarded
 * client; Termii has no official Node SDK. Numbers go without the `+`; `channel` (generic, dnd,
 * whatsapp) comes from the trigger's overrides, `generic` by default.
 */
export class TermiiSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey } = requireCredentials(credentials, ['apiKey']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, '/api/sms/send'),
      json: { api_key: apiKey, to: sms.to.replace(/^\+/, ''), from: sms.from, sms: sms.text, type: 'plain', channel: String(message.overrides.channel ?? 'generic') },
      secrets: [apiKey],
      reason: (body: { message?: string }) => body.message,
    });
    const sent = answer.body as { message_id?: string | number; message_id_str?: string };
    return { providerMessageId: sent.message_id_str ?? (sent.message_id === undefined ? undefined : String(sent.message_id)), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'termii', through: 'HTTP API (POST /api/sms/send)', create: (kit) => new TermiiSmsProvider(kit) }),
];
