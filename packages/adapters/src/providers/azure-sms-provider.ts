import { createHash, createHmac } from 'node:crypto';
import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { retryableStatus } from './kit/provider-failure';
import { requireCredentials, smsFields } from './kit/require-credentials';

const PATH = '/sms?api-version=2021-03-07';

type Sent = { value?: Array<{ to?: string; messageId?: string; httpStatusCode?: number; successful?: boolean; errorMessage?: string | null }> };

/** `endpoint=https://<resource>.communication.azure.com/;accesskey=<base64>`, as the Azure portal shows it. */
function parseConnectionString(text: string): { endpoint: string; key: string } {
  const parts = Object.fromEntries(text.split(';').filter(Boolean).map((p) => [p.slice(0, p.indexOf('=')).trim().toLowerCase(), p.slice(p.indexOf('=') + 1).trim()]));
  if (!parts.endpoint || !parts.accesskey) throw new ProviderError('the integration accessKey is not an Azure Communication Services connection string (endpoint=...;accesskey=...)', false);
  return { endpoint: parts.endpoint.replace(/\/+$/, ''), key: parts.accesskey };
}

/** The HMAC-SHA256 headers Azure Communication Services checks: date, content hash, and their signature with the host. */
function signedHeaders(url: URL, body: string, key: string): Record<string, string> {
  const date = new Date().toUTCString();
  const contentHash = createHash('sha256').update(body).digest('base64');
  const signature = createHmac('sha256', Buffer.from(key, 'base64')).update(`POST\n${url.pathname}${url.search}\n${date};${url.host};${contentHash}`).digest('base64');
  return { 'x-ms-date': date, 'x-ms-content-sha256': contentHash, host: url.host, authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}` };
}

/**
 * Azure Communication Services SMS (POST /sms, api-version 2021-03-07), signed with HMAC-SHA256 as
 * its REST docs describe, through Herald's guarded client: the endpoint comes from the tenant's
 * connection string (`accessKey`), so the outbound guard must see the call, and
 * @azure/communication-sms would make it itself. Each recipient's own status says whether it was sent.
 */
export class AzureSmsProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { accessKey } = requireCredentials(credentials, ['accessKey']);
    const { endpoint, key } = parseConnectionString(accessKey);
    const sms = smsFields(message, credentials);
    const tag = message.overrides.tag;
    const url = new URL(this.url(endpoint, PATH));
    const body = JSON.stringify({ from: sms.from, smsRecipients: [{ to: sms.to }], message: sms.text, smsSendOptions: { enableDeliveryReport: false, ...(tag ? { tag: String(tag) } : {}) } });
    const secrets = [accessKey, key];
    const answer = await this.call({
      url: url.href,
      headers: { 'content-type': 'application/json', ...signedHeaders(url, body, key) },
      body,
      secrets,
      reason: (b: { error?: { code?: string; message?: string } }) => (b.error ? `${b.error.message} (${b.error.code})` : undefined),
    });
    const sent = (answer.body as Sent).value?.[0];
    if (!sent?.successful) {
      const status = sent?.httpStatusCode ?? 0;
      throw new ProviderError(`Azure refused the message: ${sent?.errorMessage ?? 'no recipient in the answer'} (${status})`, retryableStatus(status), answer.raw, { code: String(status) });
    }
    return { providerMessageId: sent.messageId, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'azure-sms', through: 'HTTP API (POST /sms, HMAC-SHA256 signed)', create: (kit) => new AzureSmsProvider(kit) }),
];
