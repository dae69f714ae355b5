import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { basicAuth } from './kit/provider-http';
import { requireCredentials, smsFields } from './kit/require-credentials';

const API = 'https://api.plivo.com';

/**
 * Plivo Message API (POST /v1/Account/{auth_id}/Message/, Basic auth id:token, JSON), through
 * Herald's guarded client: the `plivo` SDK builds its URLs from a fixed host with no endpoint option.
 * `accountSid` is the Auth ID, `token` the Auth Token, `from` (or the trigger's `from`) the `src`.
 */
export class PlivoSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accountSid, token } = requireCredentials(credentials, ['accountSid', 'token']);
    const sms = smsFields(message, credentials);
    const answer = await this.call({
      url: this.url(API, `/v1/Account/${encodeURIComponent(accountSid)}/Message/`),
      headers: { authorization: basicAuth(accountSid, token) },
      json: { src: sms.from, dst: sms.to, text: sms.text, type: 'sms' },
      secrets: [token],
      reason: (body: { error?: unknown }) => (typeof body.error === 'string' ? body.error : body.error ? JSON.stringify(body.error) : undefined),
    });
    return { providerMessageId: (answer.body as { message_uuid?: string[] }).message_uuid?.[0], raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'plivo', through: 'HTTP API (POST /v1/Account/{id}/Message/)', create: (kit) => new PlivoSmsProvider(kit) }),
];
