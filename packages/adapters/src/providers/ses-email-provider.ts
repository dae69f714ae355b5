import { createHash } from 'node:crypto';
import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import { LRUCache } from 'lru-cache';
import { emailFields, mailbox } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, lazy, networkFailure } from './kit/provider-failure';

const sdk = lazy(() => import('@aws-sdk/client-sesv2'));

type AwsError = { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };

/**
 * Amazon SES through the AWS SDK v3 SESv2 client (SendEmail): simple content with headers and
 * attachments, or a stored template when the overrides name one. `apiKey` is the access key id,
 * `secretKey` its secret. The SDK retries nothing (Herald's retry policy does), and one client is
 * kept per account and region: building one costs more than a send.
 */
export class SesEmailProvider implements DeliveryProvider {
  private readonly clients = new LRUCache<string, SESv2Client>({ max: 100, dispose: (client) => client.destroy() });

  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, secretKey, region } = credentials;
    if (!apiKey || !secretKey || !region) throw new ProviderError('the integration needs apiKey (access key id), secretKey and region', false);
    const secrets = [secretKey];
    const { SendEmailCommand } = await sdk();
    const client = await this.client(apiKey, secretKey, region);
    const f = emailFields(message, credentials);
    const input: SendEmailCommandInput = {
      FromEmailAddress: mailbox(f.from, f.senderName),
      Destination: { ToAddresses: [f.to], CcAddresses: f.cc, BccAddresses: f.bcc },
      ReplyToAddresses: f.replyTo ? [f.replyTo] : undefined,
      Content: f.template
        ? { Template: { TemplateName: f.template.id, TemplateData: JSON.stringify(f.template.data) } }
        : {
            Simple: {
              Subject: { Data: f.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: f.html, Charset: 'UTF-8' }, ...(f.text ? { Text: { Data: f.text, Charset: 'UTF-8' } } : {}) },
              Headers: f.headers ? Object.entries(f.headers).map(([Name, Value]) => ({ Name, Value })) : undefined,
              Attachments: f.attachments.length ? f.attachments.map((a) => ({ FileName: a.filename, ContentType: a.contentType, RawContent: a.content, ContentDisposition: 'ATTACHMENT' })) : undefined,
            },
          },
      EmailTags: [{ Name: 'transactionId', Value: message.transactionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) }],
    };
    try {
      const sent = await client.send(new SendEmailCommand(input));
      return { providerMessageId: sent.MessageId, raw: JSON.stringify({ MessageId: sent.MessageId }) };
    } catch (error) {
      const e = error as AwsError;
      const status = e.$metadata?.httpStatusCode;
      if (!status) throw networkFailure(e, secrets);
      throw httpFailure(status, `${e.name}: ${e.message}`, { name: e.name, message: e.message }, secrets, e.$response?.headers?.['retry-after']);
    }
  }

  private async client(accessKeyId: string, secretAccessKey: string, region: string): Promise<SESv2Client> {
    const key = createHash('sha256').update(`${accessKeyId}\n${secretAccessKey}\n${region}`).digest('hex');
    const cached = this.clients.get(key);
    if (cached) return cached;
    const { SESv2Client } = await sdk();
    const client = new SESv2Client({
      region,
      credentials: { accessKeyId, secretAccessKey },
      ...(this.options.baseUrl ? { endpoint: this.options.baseUrl } : {}),
      maxAttempts: 1,
      requestHandler: { requestTimeout: this.options.timeoutMs, connectionTimeout: this.options.timeoutMs },
    });
    this.clients.set(key, client);
    return client;
  }

  async close(): Promise<void> {
    this.clients.clear();
  }
}

export const providers = [
  defineProvider({ id: 'ses', through: '`@aws-sdk/client-sesv2` (SendEmail)', create: (kit) => new SesEmailProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
