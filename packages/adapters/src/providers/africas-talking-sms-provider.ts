import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://api.africastalking.com';
const SANDBOX = 'https://api.sandbox.africastalking.com';
// Recipient status codes: 100-102 processed/sent/queued; 500-502 the gateway's own failures, worth another attempt.
const SENT = new Set([100, 101, 102]);
const TRANSIENT = new Set([500, 501, 502]);

type Sent = { SMSMessageData?: { Message?: string; Recipients?: Array<{ statusCode?: number; status?: string; number?: string; messageId?: string }> } };

/**
 * Africa's Talking SMS (POST /version1/messaging, form-encoded, `apiKey` header), through Herald's
 * guarded client: the `africastalking` SDK fixes its hosts. The username `sandbox` sends to the
 * sandbox, as the SDK does. The answer is 201 also for a refused number; each recipient's statusCode says.
 */
export class AfricasTalkingSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { user, apiKey } = requireCredentials(credentials, ['user', 'apiKey']);
    const sms = smsFields(message, credentials);
    const form = new URLSearchParams({ username: user, to: sms.to, message: sms.text, ...(sms.from ? { from: sms.from } : {}) });
    const answer = await this.call({
      url: this.url(user === 'sandbox' ? SANDBOX : API, `/version1/messaging`),
      headers: { apikey: apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      secrets: [apiKey],
      refusal: "Africa's Talking refused the message",
    });
    const data = (answer.body as Sent).SMSMessageData;
    const recipient = data?.Recipients?.[0];
    if (!recipient || !SENT.has(recipient.statusCode ?? 0)) {
      const why = recipient ? `${recipient.status} (status ${recipient.statusCode})` : (data?.Message ?? 'no recipient in the answer');
      throw new ProviderError(`Africa's Talking refused the message: ${why}`, TRANSIENT.has(recipient?.statusCode ?? 0), answer.raw, { code: recipient?.status });
    }
    return { providerMessageId: recipient.messageId, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'africas-talking', through: 'HTTP API (POST /version1/messaging)', create: (kit) => new AfricasTalkingSmsProvider(kit) }),
];
