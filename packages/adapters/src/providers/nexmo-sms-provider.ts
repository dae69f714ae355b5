import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://rest.nexmo.com';
// Statuses of the SMS API that another attempt may clear: 1 Throttled, 5 Internal Error.
const TRANSIENT = new Set(['1', '5']);

type Sent = { messages?: Array<{ status?: string; 'message-id'?: string; 'error-text'?: string; to?: string }> };

/**
 * Vonage (Nexmo) SMS API, POST /sms/json, form-encoded with api_key/api_secret in the body, through
 * Herald's guarded client: the official @vonage/sms needs Node >= 22 and Herald runs on Node 20. The
 * API answers 200 also for a refused message, with a non-zero `status` per message; that status is
 * what classifies it. Numbers go without the leading `+`, as the API writes them.
 */
export class NexmoSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, secretKey } = requireCredentials(credentials, ['apiKey', 'secretKey']);
    const sms = smsFields(message, credentials);
    const form = new URLSearchParams({ api_key: apiKey, api_secret: secretKey, to: sms.to.replace(/^\+/, ''), from: sms.from ?? '', text: sms.text, 'client-ref': message.transactionId.slice(0, 100) });
    if (/[^\x00-\x7f]/.test(sms.text)) form.set('type', 'unicode');
    const secrets = [apiKey, secretKey];
    const answer = await this.call({
      url: this.url(API, '/sms/json'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      secrets,
    });
    const sent = (answer.body as Sent).messages?.[0];
    if (sent?.status !== '0') {
      const status = sent?.status ?? 'none';
      throw new ProviderError(`Vonage refused the message: ${sent?.['error-text'] ?? 'no status'} (status ${status})`, TRANSIENT.has(status), answer.raw, { code: status });
    }
    return { providerMessageId: sent['message-id'], raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'nexmo', through: 'HTTP API (POST /sms/json)', create: (kit) => new NexmoSmsProvider(kit) }),
];
