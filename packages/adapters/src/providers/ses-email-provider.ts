import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import type { SendEmailCommandInput, SESv2Client } from '@aws-sdk/client-sesv2';
import { AwsClients, awsFailure } from './kit/aws-clients';
import { emailFields, mailbox } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { SesReceiptReader } from '../receipts/ses-receipt-reader';
import { SnsMessageVerifier } from '../receipts/sns-message-verifier';
import { lazy } from './kit/provider-failure';

const sdk = lazy(() => import('@aws-sdk/client-sesv2'));

/**
 * Amazon SES through the AWS SDK v3 SESv2 client (SendEmail): simple content with headers and
 * attachments, or a stored template when the overrides name one. `apiKey` is the access key id,
 * `secretKey` its secret. The SDK retries nothing (Herald's retry policy does), and one client is
 * kept per account and region: building one costs more than a send.
 */
export class SesEmailProvider implements DeliveryProvider {
  private readonly clients: AwsClients<SESv2Client>;

  constructor(options: { baseUrl?: string; timeoutMs: number }) {
    this.clients = new AwsClients(async (config) => new (await sdk()).SESv2Client(config), options);
  }

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { SendEmailCommand } = await sdk();
    const { client, secrets } = await this.clients.forCredentials(credentials);
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
      throw awsFailure(error, secrets);
    }
  }

  async close(): Promise<void> {
    this.clients.clear();
  }
}

export const providers = [
  defineProvider({
    id: 'ses',
    through: '`@aws-sdk/client-sesv2` (SendEmail)',
    create: (kit) => new SesEmailProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }),
    // SES reports through SNS; only the operator's HERALD_SNS_TRUSTED_ORIGIN (tests) stands in for SNS's hosts.
    receipts: (kit) => new SesReceiptReader(new SnsMessageVerifier(kit.http, kit.snsTrustedOrigin), kit.http),
  }),
];
