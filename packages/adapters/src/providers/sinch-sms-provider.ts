import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials, smsFields } from './kit/require-credentials';

// The US region; an operator in another region (eu, au, br, ca) sets it in HERALD_PROVIDER_ENDPOINTS.
const API = 'https://us.sms.api.sinch.com';

/**
 * Sinch SMS REST API (POST /xms/v1/{service_plan_id}/batches, bearer API token), through Herald's
 * guarded client. `accountSid` is the service plan id, `token` its API token; the transaction id goes
 * as the batch's `client_reference`, and the batch id is the message id.
 */
export class SinchSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accountSid, token } = requireCredentials(credentials, ['accountSid', 'token']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, `/xms/v1/${encodeURIComponent(accountSid)}/batches`),
      headers: { authorization: `Bearer ${token}` },
      json: { from: sms.from, to: [sms.to], body: sms.text, client_reference: message.transactionId },
      secrets: [token],
      reason: (body: { code?: string; text?: string }) => (body.text ? `${body.text} (${body.code})` : undefined),
    });
    return { providerMessageId: (answer.body as { id?: string }).id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'sinch', through: 'HTTP API (POST /xms/v1/{plan}/batches)', create: (kit) => new SinchSmsProvider(kit) }),
];
