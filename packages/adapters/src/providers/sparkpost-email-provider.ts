import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

const API = { us: 'https://api.sparkpost.com', eu: 'https://api.eu.sparkpost.com' };

/**
 * SparkPost Transmissions (POST /api/v1/transmissions) through Herald's guarded client: its Node SDK
 * is unmaintained (last release 2019, on the deprecated `request`). Cc and bcc are recipients whose
 * `header_to` is the main recipient, cc also listed in the CC header, as SparkPost documents.
 * `region: eu` sends to the EU account host.
 */
export class SparkPostEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const f = emailFields(message, credentials);
    const copy = (email: string) => ({ address: { email, header_to: f.to } });
    const headers = { ...(f.headers ?? {}), ...(f.cc ? { CC: f.cc.join(', ') } : {}) };
    const origin = this.options.baseUrl ?? (credentials.region === 'eu' ? API.eu : API.us);
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${origin}/api/v1/transmissions`,
      headers: { authorization: credentials.apiKey },
      json: {
        recipients: [{ address: { email: f.to } }, ...(f.cc ?? []).map(copy), ...(f.bcc ?? []).map(copy)],
        content: f.template
          ? { template_id: f.template.id }
          : {
              from: { email: f.from, ...(f.senderName ? { name: f.senderName } : {}) },
              subject: f.subject,
              html: f.html,
              ...(f.text ? { text: f.text } : {}),
              ...(f.replyTo ? { reply_to: f.replyTo } : {}),
              ...(Object.keys(headers).length ? { headers } : {}),
              ...(f.attachments.length ? { attachments: f.attachments.map((a) => ({ name: a.filename, type: a.contentType, data: a.content.toString('base64') })) } : {}),
            },
        ...(f.template ? { substitution_data: f.template.data } : {}),
        metadata: { transactionId: message.transactionId },
      },
      secrets: [credentials.apiKey],
      reason: (body: { errors?: Array<{ message?: string; description?: string }> }) => body.errors?.map((e) => [e.message, e.description].filter(Boolean).join(': ')).join('; '),
    });
    const results = (answer.body as { results?: { id?: string; total_accepted_recipients?: number } }).results;
    if (results?.total_accepted_recipients === 0) throw new ProviderError('SparkPost accepted none of the recipients', false, answer.raw);
    return { providerMessageId: results?.id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'sparkpost', through: 'HTTP API (POST /api/v1/transmissions)', create: (kit) => new SparkPostEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
