import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { SNSClient } from '@aws-sdk/client-sns';
import { AwsClients, awsFailure } from './kit/aws-clients';
import { defineProvider } from './kit/provider-definition';
import { lazy } from './kit/provider-failure';

const sdk = lazy(() => import('@aws-sdk/client-sns'));

/**
 * Amazon SNS SMS through the AWS SDK v3 SNS client (Publish to the subscriber's phone number, as a
 * transactional message). `apiKey` is the access key id, `secretKey` its secret; `from` (or
 * `overrides.from`) is the sender id where the destination country supports one.
 */
export class SnsSmsProvider implements DeliveryProvider {
  private readonly clients: AwsClients<SNSClient>;

  constructor(options: { baseUrl?: string; timeoutMs: number }) {
    this.clients = new AwsClients(async (config) => new (await sdk()).SNSClient(config), options);
  }

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!message.to.phone) throw new ProviderError('the subscriber has no phone number', false);
    const { PublishCommand } = await sdk();
    const { client, secrets } = await this.clients.forCredentials(credentials);
    const from = message.overrides.from ?? credentials.from;
    try {
      const sent = await client.send(
        new PublishCommand({
          PhoneNumber: message.to.phone,
          Message: message.body,
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
            ...(from ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: String(from) } } : {}),
          },
        }),
      );
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
  defineProvider({ id: 'sns', through: '`@aws-sdk/client-sns` (Publish)', create: (kit) => new SnsSmsProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
