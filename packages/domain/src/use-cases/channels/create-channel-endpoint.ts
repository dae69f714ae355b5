import { randomBytes } from 'node:crypto';
import type { ChannelEndpoint, EndpointType } from '../../entities/channel-endpoint';
import { endpointFitsProvider, validateEndpoint } from '../../entities/channel-endpoint';
import type { ProviderCatalogue } from '../../entities/provider-catalogue';
import { DomainError } from '../../errors';
import type { ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import type { ChannelEndpointRepository } from '../../ports/channel-endpoint-repository';
import type { IntegrationRepository } from '../../ports/integration-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import { toContextKeys } from '../../shared/context-keys';

export interface CreateChannelEndpointInput {
  environmentId: string;
  identifier?: string;
  subscriberId: string;
  /** Creates a bare subscriber instead of answering 404. */
  createSubscriberIfMissing?: boolean;
  context?: Record<string, string | { id: string }>;
  integrationIdentifier: string;
  connectionIdentifier?: string;
  type: EndpointType;
  endpoint: unknown;
}

/** Stores a subscriber's destination on an integration; channel and provider follow from the integration. */
export class CreateChannelEndpoint {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly integrations: IntegrationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly connections: ChannelConnectionRepository,
    private readonly endpoints: ChannelEndpointRepository,
  ) {}

  async execute(input: CreateChannelEndpointInput): Promise<ChannelEndpoint> {
    const { environmentId } = input;
    const errors = validateEndpoint(input.type, input.endpoint);
    if (Object.keys(errors).length) throw DomainError.validation(errors);

    const integration = await this.integrations.find(environmentId, input.integrationIdentifier);
    if (!integration) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', input.integrationIdentifier);
    const provider = this.catalogue.find(integration.providerId);
    if (!provider || !endpointFitsProvider(input.type, provider)) {
      throw DomainError.field('type', `a ${input.type} endpoint cannot be delivered through ${integration.providerId}`, input.type);
    }

    let connectionId: string | null = null;
    if (input.connectionIdentifier) {
      const connection = await this.connections.findByIdentifier(environmentId, input.connectionIdentifier);
      if (!connection) throw DomainError.notFound('CHANNEL_CONNECTION_NOT_FOUND', 'Channel connection', input.connectionIdentifier);
      if (connection.integrationId !== integration.id) {
        throw DomainError.field('connectionIdentifier', `belongs to another integration than '${integration.identifier}'`, input.connectionIdentifier);
      }
      connectionId = connection.id;
    }

    const subscriber =
      (await this.subscribers.findById(environmentId, input.subscriberId)) ??
      (input.createSubscriberIfMissing
        ? ((await this.subscribers.insert(environmentId, { subscriberId: input.subscriberId })) ??
          (await this.subscribers.findById(environmentId, input.subscriberId)))
        : null);
    if (!subscriber) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);

    const identifier = input.identifier?.trim() || `${input.type}-${randomBytes(6).toString('hex')}`;
    const created = await this.endpoints.create(environmentId, {
      identifier,
      integrationId: integration.id,
      connectionId,
      subscriberRowId: subscriber.id,
      contextKeys: toContextKeys(input.context),
      type: input.type,
      endpoint: input.endpoint as Record<string, string>,
    });
    if (!created) {
      throw new DomainError('CHANNEL_ENDPOINT_ALREADY_EXISTS', `A channel endpoint with identifier '${identifier}' already exists`);
    }
    return created;
  }
}
